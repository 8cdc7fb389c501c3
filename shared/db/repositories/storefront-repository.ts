/**
 * Agents' storefronts: the `storefront` map on the agent's user item, and the `tenantHosts` item of a proven
 * domain, which names the tenant and the agent (`storefront_owner`) instead of holding a copy of the tenant
 * (tenant-repository.ts reads both kinds).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactWrite, type TransactItem } from '../transactions';
import { batchGet } from '../batch';
import { storefrontFromItem, storefrontItem, type Storefront, type StorefrontItem } from '../../records/storefront';
import type { User } from '../../records/user';
import { userFromItem } from './user-repository';

export interface StorefrontOwner {
  user: User;
  storefront: Storefront;
}

/** The user and its storefront (empty when never set); undefined when no such user. */
export async function getStorefrontOwner(userId: string): Promise<StorefrontOwner | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('users'), Key: { user_id: userId } }));
  if (!out.Item) return undefined;
  return { user: userFromItem(out.Item), storefront: storefrontFromItem(out.Item.storefront as StorefrontItem | undefined) };
}

/** Whether any of `userIds` is suspended or gone (an agent's upline: its adds are refused then). */
export async function anySuspended(userIds: readonly string[]): Promise<boolean> {
  if (userIds.length === 0) return false;
  const items = await batchGet(tableName('users'), userIds.map((user_id) => ({ user_id })), ['user_id', 'suspended']);
  return items.length < new Set(userIds).size || items.some((item) => item.suspended === true);
}

/** The item of `host` in `tenantHosts` when it is a storefront's: its tenant and agent. */
export async function getStorefrontHost(host: string): Promise<{ tenantId: string; ownerId: string } | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('tenantHosts'), Key: { host } }));
  const item = out.Item as { tenant_id?: string; storefront_owner?: string } | undefined;
  return item?.storefront_owner && item.tenant_id ? { tenantId: item.tenant_id, ownerId: item.storefront_owner } : undefined;
}

/** Releasing the agent's proven host: only while the host is still the agent's. */
function releaseHost(agentId: string, host: string): TransactItem {
  return { Delete: { TableName: tableName('tenantHosts'), Key: { host }, ConditionExpression: 'storefront_owner = :o', ExpressionAttributeValues: { ':o': agentId } } };
}

/**
 * Writes `next` over `previous` (what the caller read): refused (false) when the storefront changed since,
 * so two writers never lose each other's domain. A proven domain that `next` no longer names is released in
 * the same transaction.
 */
export async function putStorefront(agentId: string, previous: Storefront, next: Storefront): Promise<boolean> {
  const release = previous.domainState === 'active' && previous.domain !== next.domain;
  const items: TransactItem[] = [
    {
      Update: {
        TableName: tableName('users'),
        Key: { user_id: agentId },
        UpdateExpression: 'SET storefront = :s',
        ConditionExpression: previous.domain ? 'attribute_exists(user_id) AND storefront.#d = :d AND storefront.domain_state = :st' : 'attribute_exists(user_id) AND (attribute_not_exists(storefront) OR storefront.#d = :d)',
        ExpressionAttributeNames: { '#d': 'domain' },
        ExpressionAttributeValues: { ':s': storefrontItem(next), ':d': previous.domain, ...(previous.domain ? { ':st': previous.domainState } : {}) },
      },
    },
    ...(release ? [releaseHost(agentId, previous.domain)] : []),
  ];
  return (await transactWrite(items, { conflicts: 'report' })).ok;
}

/**
 * Maps the proven `domain` to the agent (like a tenant's host, with the agent as its owner) and marks it
 * active, in one transaction: `taken` when any tenant or storefront holds the host already, `changed` when the
 * agent's claim is no longer this domain.
 */
export async function activateStorefrontDomain(agent: Pick<User, 'userId' | 'tenantId'>, domain: string, now: number): Promise<'ok' | 'taken' | 'changed'> {
  const outcome = await transactWrite(
    [
      {
        Put: {
          TableName: tableName('tenantHosts'),
          Item: { host: domain, tenant_id: agent.tenantId, storefront_owner: agent.userId, created_at: now },
          ConditionExpression: 'attribute_not_exists(host)',
        },
      },
      {
        Update: {
          TableName: tableName('users'),
          Key: { user_id: agent.userId },
          UpdateExpression: 'SET storefront.domain_state = :active',
          ConditionExpression: 'storefront.#d = :d AND storefront.domain_state = :pending',
          ExpressionAttributeNames: { '#d': 'domain' },
          ExpressionAttributeValues: { ':active': 'active', ':pending': 'pending', ':d': domain },
        },
      },
    ],
    { conflicts: 'report' },
  );
  if (outcome.ok) return 'ok';
  return outcome.failed.includes(0) ? 'taken' : 'changed';
}
