/**
 * The feed's and the gate's reads, each a single BatchGetItem over keys the request already names, so a feed
 * read costs at most two round trips after its rate limit: what the source serves (the source, its published
 * apps, the device key's UDID), then where that UDID stands (blocked, unlocked, disabled by the owner); one,
 * when the standing is read ahead beside the first (`StandingRead`).
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { appFromItem, appKey } from './app-repository';
import { deviceKeyItem, deviceKeyState, deviceUrlItem } from './device-key-repository';
import { anyDisabled, disabledDeviceKey } from './disabled-device-repository';
import { listedApps } from './feed-document-repository';
import { blockKey, unlockKey } from './protection-repository';
import type { App } from '../../records/app';
import type { Source } from '../../records/source';

export interface FeedSource {
  source: Source | undefined;
  /** The published apps, when the source's feed copy lists them all; undefined: read the apps themselves. */
  apps: App[] | undefined;
  /** The UDID the request's device key proves, if it named a valid one. */
  provenUdid: string | undefined;
  /** The standing `ahead` asked for, read in the same batch (only when it was asked for). */
  ahead?: Standing;
}

/**
 * The standing of a UDID read before it is known for certain (issue 41): the UDID and the source's owner an
 * instance remembers for what the request names. Whoever reads it checks, against the items read in the same
 * batch, that it is the UDID and owner the request turns out to name, before using it.
 */
export interface StandingRead {
  udid: string;
  ownerId: string;
  /** Also read the device key the UDID holds (the gate's proven links). */
  withDeviceKey?: boolean;
}

type BatchRequests = Parameters<typeof batchGetAll>[0];

/** The standing's keys as BatchGetItem requests, with `protectionKeys` (other items of the source) beside them. */
function standingRequests(sourceId: string, read: StandingRead | undefined, protectionKeys: string[] = []): BatchRequests {
  const [protection, disabled] = [tableName('sourceProtection'), tableName('disabledDevices')];
  const keys = [...protectionKeys, ...(read ? [blockKey(read.udid), unlockKey(read.udid), ...(read.withDeviceKey ? [deviceUrlItem(read.udid)] : [])] : [])];
  return {
    ...(keys.length ? { [protection]: { Keys: keys.map((item_key) => ({ source_id: sourceId, item_key })), ConsistentRead: true } } : {}),
    ...(read ? { [disabled]: { Keys: [disabledDeviceKey(read.ownerId, read.udid)], ConsistentRead: true } } : {}),
  };
}

function standingFound(found: Record<string, Record<string, unknown>[] | undefined>, { udid, withDeviceKey }: StandingRead): Standing {
  const items = found[tableName('sourceProtection')] ?? [];
  const unlock = items.find((i) => i.item_key === unlockKey(udid));
  const deviceKey = withDeviceKey ? deviceKeyState(items.find((i) => i.item_key === deviceUrlItem(udid))).key : undefined;
  return { blocked: items.some((i) => i.item_key === blockKey(udid)), unlockedUntil: Number(unlock?.ends_at ?? 0), disabled: anyDisabled(found[tableName('disabledDevices')]?.[0]), ...(withDeviceKey ? { deviceKey } : {}) };
}

/** The source, its feed copy, (with a device key) the key's UDID and (with `ahead`) a standing: one BatchGetItem. */
export async function readFeedSource(sourceId: string, deviceKey: string | undefined, ahead?: StandingRead): Promise<FeedSource> {
  const [sources, feeds, protection] = [tableName('sources'), tableName('sourceFeeds'), tableName('sourceProtection')];
  const found = await batchGetAll({
    [sources]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    [feeds]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    ...standingRequests(sourceId, ahead, deviceKey ? [deviceKeyItem(deviceKey)] : []),
  });
  const listed = listedApps(found[feeds]?.[0]);
  return {
    source: found[sources]?.[0] as Source | undefined,
    apps: listed?.map(appFromItem),
    provenUdid: deviceKey ? (found[protection]?.find((i) => i.item_key === deviceKeyItem(deviceKey))?.udid as string | undefined) : undefined,
    ...(ahead ? { ahead: standingFound(found, ahead) } : {}),
  };
}

/** The gate's first read: the source, the app and (with `ahead`) a standing: one BatchGetItem. */
export async function readGateSource(sourceId: string, appId: number, ahead?: StandingRead): Promise<{ source: Source | undefined; app: App | undefined; ahead?: Standing }> {
  const [sources, apps] = [tableName('sources'), tableName('apps')];
  const found = await batchGetAll({
    [sources]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    [apps]: { Keys: [{ source_id: sourceId, item_key: appKey(appId) }], ConsistentRead: true },
    ...standingRequests(sourceId, ahead),
  });
  const app = found[apps]?.[0];
  return { source: found[sources]?.[0] as Source | undefined, app: app ? appFromItem(app) : undefined, ...(ahead ? { ahead: standingFound(found, ahead) } : {}) };
}

export interface Standing {
  blocked: boolean;
  /** Unix seconds until which the UDID may download the source's locked apps; 0 when it never unlocked. */
  unlockedUntil: number;
  /** The source's owner disabled some certificate of this UDID. */
  disabled: boolean;
  /** The device key the UDID holds now (read only when asked). */
  deviceKey?: string | undefined;
}

/** Where `udid` stands with the source and its owner: one BatchGetItem. */
export async function readStanding(sourceId: string, ownerId: string, udid: string, withDeviceKey = false): Promise<Standing> {
  const read = { udid, ownerId, withDeviceKey };
  return standingFound(await batchGetAll(standingRequests(sourceId, read)), read);
}
