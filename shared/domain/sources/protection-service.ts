/**
 * Unlock codes, unlocking, misuse reports and the block list, free of HTTP. Owners act on their own sources
 * (anything else is "source not found"); signer apps act on a source through its public feed address.
 * The protection entries are the wired protection store's (`protection-store.ts`): DynamoDB in every
 * function, in memory in the rule tests (which call the rules below once the source is known).
 */
import { readFeedSource as sourceWithDeviceKey } from '../../db/repositories/feed-read-repository';
import { listDevicesByUserUdid } from '../../db/repositories/device-repository';
import { DomainError, validationError } from '../errors';
import { store } from '../stores';
import { DEVICE_KEY_PARAM } from './device-keys';
import { chargeSourceCeiling } from './source-ceiling';
import { isUnlocked, monitorPosition, newUnlockCode, unlockCodeView, type MonitorRole } from '../../records/protection';
import { ownedSource } from './source-lookup';
import type { Actor, Source } from '../../records/source';

/** Draws `count` new codes and stores them together; a collision with an existing code (astronomically rare) draws again. */
export async function createUnlockCodes(actor: Actor, sourceId: string, input: { count: number; days: number }, now: number) {
  const source = await ownedSource(actor, sourceId);
  for (let attempt = 0; attempt < 3; attempt++) {
    const codes = [...new Set(Array.from({ length: input.count }, newUnlockCode))].map((code) => ({ code, days: input.days }));
    if (codes.length === input.count && (await store('protection').putUnlockCodes(source.source_id, codes, now))) return { codes };
  }
  throw new DomainError('unavailable', 'internal_error');
}

/** Every code of the source, newest first, with who used it and until when. */
export async function listUnlockCodes(actor: Actor, sourceId: string) {
  const source = await ownedSource(actor, sourceId);
  const codes = await store('protection').listUnlockCodes(source.source_id);
  codes.sort((a, b) => b.created_at - a.created_at || a.code.localeCompare(b.code));
  return { codes: codes.map(unlockCodeView) };
}

const unlockRefused = (reason: 'unlock_code_used' | 'unlock_code_unknown' | 'udid_invalid', fields?: string[]) =>
  new DomainError('unlock_refused', reason, fields ? { fields } : {});

/** `2026-11-23 08:00 UTC`: how the success message shows the end of an unlock. */
const readableTime = (unixSeconds: number) => `${new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Redeems a code for a UDID. The code's one use is a single conditional write, so when several devices race
 * for a code exactly one wins; the UDID that holds a code gets the same answer again (and its unlock written
 * again, should an earlier attempt have stopped between the two writes). The UDID (upper-cased) and the code
 * (normalized) are undefined when the request's were malformed: refused once the source is known to exist.
 */
export async function unlockWithCode(input: { sourceId: string; tenantId: string; udid: string | undefined; deviceKey?: string | undefined; code: string | undefined; nowSeconds: number }) {
  // From a device-bound URL the device key names the UDID (`?dk=…&code=…`); otherwise the `udid` parameter does.
  const found = await sourceWithDeviceKey(input.sourceId, input.deviceKey);
  if (!found.source || found.source.tenant_id !== input.tenantId) throw new DomainError('source_not_found', 'source_not_found');
  return redeemUnlockCode(found.source.source_id, found.provenUdid ?? input.udid, input.code, input.nowSeconds);
}

/** The rule of `unlockWithCode` once the source is known: the code's one use, and the unlock it grants. */
export async function redeemUnlockCode(sourceId: string, udid: string | undefined, code: string | undefined, nowSeconds: number) {
  if (!udid) throw unlockRefused('udid_invalid', ['udid']);
  if (!code) throw unlockRefused('unlock_code_unknown');
  const protection = store('protection');
  const outcome = await protection.useUnlockCode(sourceId, code, udid, nowSeconds);
  if ('refused' in outcome && outcome.refused === 'unknown') throw unlockRefused('unlock_code_unknown');
  const held = 'used' in outcome ? outcome.used : outcome.by;
  if (held.udid !== udid || held.ends_at === undefined) throw unlockRefused('unlock_code_used');
  await protection.grantUnlock(sourceId, udid, held.ends_at);
  return {
    data: { udid, code, days: held.days, ends_at: held.ends_at },
    message: { key: 'unlocked_until' as const, params: { until: readableTime(held.ends_at) } },
  };
}

/** The UDIDs a misuse report names (upper-cased), each undefined when its part was empty or unusable; at least one is given. */
export interface MisuseReport {
  adder: string | undefined;
  cracker: string | undefined;
}

export interface MisuseReportInput {
  sourceId: string;
  tenantId: string;
  report: MisuseReport | undefined;
  /** The report came as JSON: a form post (any web page can send one) never counts. */
  json: boolean;
  /** The device key the reporter read the source with (`?dk=`), when well formed. */
  deviceKey: string | undefined;
  /** Reports the source may take in an hour (tenant setting): spam cannot grow the monitor without limit. */
  hourlyCeiling: number;
  nowMs: number;
}

/**
 * A signer app's misuse report, which counts only when the device reports itself: the request is JSON, it
 * carries a valid device key, and only the part naming that key's UDID is taken (another device is never
 * blocked on someone's word). With `open_black` 1 that adder is blocked at once, with `open_black2` 1 that
 * cracker; otherwise — and always for a device of the owner's own or one with an unlock running, which only
 * the owner may block (by hand) — it is counted in the monitor (unless already blocked). Each source takes at
 * most `hourlyCeiling` reports an hour.
 */
export async function reportMisuse(input: MisuseReportInput) {
  const { source, provenUdid } = await sourceWithDeviceKey(input.sourceId, input.deviceKey);
  if (!source || source.tenant_id !== input.tenantId) throw new DomainError('source_not_found', 'source_not_found');
  if (!input.json) throw validationError('report_json_required', ['value']);
  if (!input.report) throw validationError('invalid_value', ['value']);
  if (!provenUdid) throw validationError('device_key_required', [DEVICE_KEY_PARAM]);
  const { adder, cracker } = input.report;
  if (adder !== provenUdid && cracker !== provenUdid) throw validationError('device_key_required', [DEVICE_KEY_PARAM]);
  await chargeSourceCeiling('report', source.source_id, input.hourlyCeiling, input.nowMs, 'hour');
  const nowSeconds = Math.floor(input.nowMs / 1000);
  // Read beside the device's standing, in parallel.
  const ownersDevice = listDevicesByUserUdid(source.owner_id, provenUdid).then((owned) => owned.some((d) => d.tenant_id === source.tenant_id));
  return countMisuseReport({ source, provenUdid, report: input.report, ownersDevice, nowSeconds });
}

/**
 * The rule of `reportMisuse` once the report is known to be the device's own: block at once where the source
 * says so, unless the device is protected (the owner's own, `ownersDevice`, or one whose unlock runs);
 * otherwise count it in the monitor, unless it is blocked.
 */
export async function countMisuseReport(input: { source: Pick<Source, 'source_id' | 'open_black' | 'open_black2'>; provenUdid: string; report: MisuseReport; ownersDevice: boolean | Promise<boolean>; nowSeconds: number }) {
  const { source, provenUdid, nowSeconds } = input;
  const { adder, cracker } = input.report;
  const protection = store('protection');
  const [standing, ownersDevice] = await Promise.all([protection.deviceStanding(source.source_id, provenUdid), input.ownersDevice]);
  const protectedDevice = ownersDevice || isUnlocked(standing, nowSeconds);
  const blocked = new Set<string>();
  const monitored = new Set<string>();
  const parts: [MonitorRole, string | undefined, 0 | 1][] = [
    ['adder', adder, source.open_black],
    ['cracker', cracker, source.open_black2],
  ];
  for (const [role, udid, blockAtOnce] of parts) {
    if (udid !== provenUdid) continue;
    if (blockAtOnce === 1 && !protectedDevice) {
      await protection.blockUdid(source.source_id, udid, role, nowSeconds);
      blocked.add(udid);
    } else if (await protection.recordMonitored(source.source_id, udid, role, nowSeconds)) {
      monitored.add(udid);
    }
  }
  return { blocked: [...blocked], monitored: [...monitored] };
}

/** Where a block-list page starts: in the blocked list after `after`, or in the monitor after `after`. */
export interface BlocklistPosition {
  list: 'block' | 'monitor';
  /** The last entry's key of the previous page; undefined from the list's start. */
  after: string | undefined;
}

/**
 * One page of the source's block list: blocked UDIDs first, then the misuse monitor, each in UDID order, at
 * most `limit` entries in all; `next` is where the following page starts (none at the end).
 */
export async function blocklist(actor: Actor, sourceId: string, limit: number, from: BlocklistPosition | undefined) {
  const source = await ownedSource(actor, sourceId);
  return blocklistPage(source.source_id, limit, from);
}

/** The paging rule of `blocklist` once the source is known to be the actor's. */
export async function blocklistPage(sourceId: string, limit: number, from: BlocklistPosition | undefined) {
  const protection = store('protection');
  const start = from ?? { list: 'block', after: undefined };
  const blocked = start.list === 'block' ? await protection.pageBlocked(sourceId, limit, start.after) : { items: [], more: false };
  const lastBlocked = blocked.items.at(-1);
  if (blocked.more && lastBlocked) return { blocked: blocked.items, monitored: [], next: { list: 'block', after: lastBlocked.udid } satisfies BlocklistPosition };
  const room = limit - blocked.items.length;
  // A full page of blocked UDIDs still asks for one monitor entry: whether the next page has anything.
  const monitored = await protection.pageMonitored(sourceId, Math.max(room, 1), start.list === 'monitor' ? start.after : undefined);
  const shown = monitored.items.slice(0, room);
  const more = monitored.more || monitored.items.length > shown.length;
  const last = shown.at(-1);
  const next: BlocklistPosition | undefined = !more ? undefined : { list: 'monitor', after: last ? monitorPosition(last) : start.list === 'monitor' ? start.after : undefined };
  return { blocked: blocked.items, monitored: shown, next };
}

/** The path's UDID, upper-cased; undefined when it was malformed, refused once the source is known to be the actor's. */
function pathUdid(udid: string | undefined): string {
  if (!udid) throw validationError('invalid_value', ['udid']);
  return udid;
}

/** Blocks a UDID by hand; blocking one already blocked keeps its entry (reason and time) and answers it. */
export async function blockByHand(actor: Actor, sourceId: string, udid: string | undefined, now: number) {
  const source = await ownedSource(actor, sourceId);
  const { entry } = await store('protection').blockUdid(source.source_id, pathUdid(udid), 'manual', now);
  return { ...entry };
}

/** Takes a UDID off the block list; `was_blocked` says whether it was on it. */
export async function unblock(actor: Actor, sourceId: string, given: string | undefined) {
  const source = await ownedSource(actor, sourceId);
  const udid = pathUdid(given);
  const wasBlocked = await store('protection').unblockUdid(source.source_id, udid);
  return { udid, blocked: false, was_blocked: wasBlocked };
}
