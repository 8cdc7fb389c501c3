/**
 * Unlock codes, unlocking, misuse reports and the block list, free of HTTP. Owners act on their own sources
 * (anything else is "source not found"); signer apps act on a source through its public feed address.
 */
import {
  blockUdid,
  grantUnlock,
  listBlocked,
  listMonitored,
  listUnlockCodes as listStoredCodes,
  putUnlockCodes,
  recordMonitored,
  unblockUdid,
  useUnlockCode,
} from '../../db/repositories/protection-repository';
import { DomainError, validationError } from '../errors';
import { newUnlockCode, unlockCodeView, type MonitorRole } from './protection';
import { ownedSource, sourceOnTenant } from './source-lookup';
import type { Actor } from './source';

/** Draws `count` new codes and stores them together; a collision with an existing code (astronomically rare) draws again. */
export async function createUnlockCodes(actor: Actor, sourceId: string, input: { count: number; days: number }, now: number) {
  const source = await ownedSource(actor, sourceId);
  for (let attempt = 0; attempt < 3; attempt++) {
    const codes = [...new Set(Array.from({ length: input.count }, newUnlockCode))].map((code) => ({ code, days: input.days }));
    if (codes.length === input.count && (await putUnlockCodes(source.source_id, codes, now))) return { codes };
  }
  throw new DomainError('unavailable', 'internal_error');
}

/** Every code of the source, newest first, with who used it and until when. */
export async function listUnlockCodes(actor: Actor, sourceId: string) {
  const source = await ownedSource(actor, sourceId);
  const codes = await listStoredCodes(source.source_id);
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
export async function unlockWithCode(input: { sourceId: string; tenantId: string; udid: string | undefined; code: string | undefined; nowSeconds: number }) {
  const source = await sourceOnTenant(input.sourceId, input.tenantId);
  const { udid, code } = input;
  if (!udid) throw unlockRefused('udid_invalid', ['udid']);
  if (!code) throw unlockRefused('unlock_code_unknown');
  const outcome = await useUnlockCode(source.source_id, code, udid, input.nowSeconds);
  if ('refused' in outcome && outcome.refused === 'unknown') throw unlockRefused('unlock_code_unknown');
  const held = 'used' in outcome ? outcome.used : outcome.by;
  if (held.udid !== udid || held.ends_at === undefined) throw unlockRefused('unlock_code_used');
  await grantUnlock(source.source_id, udid, held.ends_at);
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

/**
 * A signer app's misuse report. With `open_black` 1 the adder is blocked at once, with `open_black2` 1 the
 * cracker; a part whose flag is off is counted in the monitor instead (unless it is already blocked). An
 * undefined report was malformed: refused once the source is known to exist.
 */
export async function reportMisuse(input: { sourceId: string; tenantId: string; report: MisuseReport | undefined; nowSeconds: number }) {
  const source = await sourceOnTenant(input.sourceId, input.tenantId);
  if (!input.report) throw validationError('invalid_value', ['value']);
  const { adder, cracker } = input.report;
  const blocked = new Set<string>();
  const monitored = new Set<string>();
  const parts: [MonitorRole, string | undefined, 0 | 1][] = [
    ['adder', adder, source.open_black],
    ['cracker', cracker, source.open_black2],
  ];
  for (const [role, udid, blockAtOnce] of parts) {
    if (!udid) continue;
    if (blockAtOnce === 1) {
      await blockUdid(source.source_id, udid, role, input.nowSeconds);
      blocked.add(udid);
    } else if (await recordMonitored(source.source_id, udid, role, input.nowSeconds)) {
      monitored.add(udid);
    }
  }
  return { blocked: [...blocked], monitored: [...monitored] };
}

/** The source's block list and monitor, most recent first. */
export async function blocklist(actor: Actor, sourceId: string) {
  const source = await ownedSource(actor, sourceId);
  const [blocked, monitored] = await Promise.all([listBlocked(source.source_id), listMonitored(source.source_id)]);
  blocked.sort((a, b) => b.added_at - a.added_at || a.udid.localeCompare(b.udid));
  monitored.sort((a, b) => b.last_seen - a.last_seen || a.udid.localeCompare(b.udid));
  return { blocked, monitored };
}

/** The path's UDID, upper-cased; undefined when it was malformed, refused once the source is known to be the actor's. */
function pathUdid(udid: string | undefined): string {
  if (!udid) throw validationError('invalid_value', ['udid']);
  return udid;
}

/** Blocks a UDID by hand; blocking one already blocked keeps its entry (reason and time) and answers it. */
export async function blockByHand(actor: Actor, sourceId: string, udid: string | undefined, now: number) {
  const source = await ownedSource(actor, sourceId);
  const { entry } = await blockUdid(source.source_id, pathUdid(udid), 'manual', now);
  return { ...entry };
}

/** Takes a UDID off the block list; `was_blocked` says whether it was on it. */
export async function unblock(actor: Actor, sourceId: string, given: string | undefined) {
  const source = await ownedSource(actor, sourceId);
  const udid = pathUdid(given);
  const wasBlocked = await unblockUdid(source.source_id, udid);
  return { udid, blocked: false, was_blocked: wasBlocked };
}
