/**
 * The reseller's own device list: their certificates on the tenant of the request, newest first, a page at a
 * time, filtered. Read from the owner's index only; a caller on another tenant's site owns nothing there.
 */
import { listOwnedDevices, type DeviceListQuery } from '../../db/repositories/device-list-repository';
import type { Actor } from '../../records/source';
import { listItemView } from '../../records/device';
import { getAccount } from '../../db/repositories/account-repository';
import { DomainError } from '../errors';

export type DeviceListFilters = Omit<DeviceListQuery, 'userId' | 'tenantId' | 'after' | 'limit' | 'readBudget'>;

/** Index entries read per request at most: filters that match little make short pages, never long requests. */
const READ_BUDGET = 1_000;

export async function listDevices(actor: Actor, request: { filters: DeviceListFilters; after: { kid: string; addtime: number } | undefined; limit: number }) {
  // Filtering by an account is for the caller's own accounts only: any other id is answered as unknown.
  if (request.filters.accountId !== undefined) {
    const account = await getAccount(request.filters.accountId);
    if (!account || account.pool !== 'private' || account.ownerUserId !== actor.userId || account.tenantId !== actor.tenantId) throw new DomainError('device_not_found', 'apple_account_not_found');
  }
  const page = await listOwnedDevices({
    ...request.filters,
    beizhu: request.filters.beizhu?.toLowerCase(),
    userId: actor.userId,
    tenantId: actor.tenantId,
    after: request.after,
    limit: request.limit,
    readBudget: READ_BUDGET,
  });
  return { items: page.devices.map(listItemView), next: page.next };
}
