/**
 * A user's devices by state, counted where the state changes: one item per user (`devices#<user>` in the
 * counters table) with, per certificate status, how many of the user's certificates are in it (`zt_<status>`),
 * and how many are disabled by their owner (`disabled`, whatever their status). Each write that creates a
 * certificate, moves its status or flips `enabled` adds its change to the item in the same transaction, so the
 * dashboard reads a reseller's 100,000 devices by state as one item.
 *
 * Status and `enabled` are counted apart on purpose: a change of one never needs to know the other's value at
 * that moment (a review finishing while its owner disables it stays exact).
 */
import { DEVICE_ZT, type DeviceZt } from './device';

/** Signed changes: per status, and of the disabled count. */
export interface DeviceTallyChange {
  zt?: Partial<Record<DeviceZt, number>>;
  disabled?: number;
}

export const deviceTallyKey = (userId: string) => `devices#${userId}`;
export const ztAttribute = (zt: DeviceZt) => `zt_${zt}`;
export const DISABLED_ATTRIBUTE = 'disabled';

/** A new certificate counted. */
export const created = (device: { zt: DeviceZt; enabled: boolean }): DeviceTallyChange => ({ zt: { [device.zt]: 1 }, disabled: device.enabled ? 0 : 1 });

/** A certificate moved from one status to another. */
export const moved = (from: DeviceZt, to: DeviceZt): DeviceTallyChange => (from === to ? {} : { zt: { [from]: -1, [to]: 1 } });

/** A certificate enabled (`true`) or disabled by its owner. */
export const switched = (enabled: boolean): DeviceTallyChange => ({ disabled: enabled ? -1 : 1 });

export interface DeviceTally {
  byStatus: Record<DeviceZt, number>;
  disabled: number;
}

export function deviceTallyFromItem(item: Record<string, unknown> | undefined): DeviceTally {
  return {
    byStatus: Object.fromEntries(DEVICE_ZT.map((zt) => [zt, Number(item?.[ztAttribute(zt)] ?? 0)])) as Record<DeviceZt, number>,
    disabled: Number(item?.[DISABLED_ATTRIBUTE] ?? 0),
  };
}

/** What a dashboard shows: certificates in all, enabled and disabled ones, reviews pending, and by status. */
export function deviceFigures(tally: DeviceTally) {
  const total = DEVICE_ZT.reduce((sum, zt) => sum + tally.byStatus[zt], 0);
  return { total, enabled: total - tally.disabled, disabled: tally.disabled, pending_review: tally.byStatus.processing, by_status: tally.byStatus };
}
