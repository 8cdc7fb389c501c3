/**
 * The feed's and the gate's reads, each a single BatchGetItem over keys the request already names, so a feed
 * read costs at most two round trips after its rate limit: what the source serves (the source, its published
 * apps, the device key's UDID), then where that UDID stands (blocked, unlocked, disabled by the owner).
 */
import { batchGetAll } from '../batch';
import { tableName } from '../table-names';
import { appFromItem } from './app-repository';
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
}

/** The source, its feed copy and (with a device key) the key's UDID: one BatchGetItem. */
export async function readFeedSource(sourceId: string, deviceKey: string | undefined): Promise<FeedSource> {
  const [sources, feeds, protection] = [tableName('sources'), tableName('sourceFeeds'), tableName('sourceProtection')];
  const found = await batchGetAll({
    [sources]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    [feeds]: { Keys: [{ source_id: sourceId }], ConsistentRead: true },
    ...(deviceKey ? { [protection]: { Keys: [{ source_id: sourceId, item_key: deviceKeyItem(deviceKey) }], ConsistentRead: true } } : {}),
  });
  const listed = listedApps(found[feeds]?.[0]);
  return {
    source: found[sources]?.[0] as Source | undefined,
    apps: listed?.map(appFromItem),
    provenUdid: found[protection]?.[0]?.udid as string | undefined,
  };
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
  const [protection, disabled] = [tableName('sourceProtection'), tableName('disabledDevices')];
  const keys = [blockKey(udid), unlockKey(udid), ...(withDeviceKey ? [deviceUrlItem(udid)] : [])];
  const found = await batchGetAll({
    [protection]: { Keys: keys.map((item_key) => ({ source_id: sourceId, item_key })), ConsistentRead: true },
    [disabled]: { Keys: [disabledDeviceKey(ownerId, udid)], ConsistentRead: true },
  });
  const items = found[protection] ?? [];
  const unlock = items.find((i) => i.item_key === unlockKey(udid));
  const deviceKey = withDeviceKey ? deviceKeyState(items.find((i) => i.item_key === deviceUrlItem(udid))).key : undefined;
  return { blocked: items.some((i) => i.item_key === blockKey(udid)), unlockedUntil: Number(unlock?.ends_at ?? 0), disabled: anyDisabled(found[disabled]?.[0]), ...(withDeviceKey ? { deviceKey } : {}) };
}
