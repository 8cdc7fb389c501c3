/**
 * Users and their tokens. A user item holds the hash of its current token; the `tokens` table holds one item
 * per live token (keyed by that hash) naming its user, tenant and expiry, so authenticating a request is one
 * strongly consistent GetItem. Both are written in one transaction, so they never disagree.
 */
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { transactWrite } from '../transactions';
import { batchGet, batchGetAll } from '../batch';
import { queryItems } from '../paging';
import type { TableKey } from '../tables';
import type { TokenOwner, User } from '../../records/user';

interface UserItem {
  user_id: string;
  tenant_id: string;
  name?: string;
  balance?: number;
  ledger_seq?: number;
  token_hash: string;
  token_expires_at?: number;
  upline?: string[];
  parent_id?: string;
  suspended?: boolean;
  contact?: string;
  agent_low_threshold?: number;
  agent_low_at?: number;
}

interface TokenItem {
  token_hash: string;
  user_id: string;
  tenant_id: string;
  expires_at?: number;
}

export function userFromItem(item: Record<string, unknown>): User {
  const u = item as unknown as UserItem;
  return {
    userId: u.user_id,
    tenantId: u.tenant_id,
    name: u.name ?? '',
    balance: u.balance ?? 0,
    ledgerSeq: u.ledger_seq ?? 0,
    tokenHash: u.token_hash,
    tokenExpiresAt: u.token_expires_at,
    upline: u.upline ?? [],
    suspended: u.suspended === true,
    contact: u.contact ?? '',
    lowBalance: u.agent_low_threshold ?? 0,
    lowBalanceSince: u.agent_low_at,
  };
}

export function tokenItem(user: Pick<User, 'userId' | 'tenantId' | 'tokenHash' | 'tokenExpiresAt'>): TokenItem {
  return {
    token_hash: user.tokenHash,
    user_id: user.userId,
    tenant_id: user.tenantId,
    ...(user.tokenExpiresAt !== undefined ? { expires_at: user.tokenExpiresAt } : {}),
  };
}

export async function getUser(userId: string): Promise<User | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('users'), Key: { user_id: userId }, ConsistentRead: true }));
  return out.Item ? userFromItem(out.Item) : undefined;
}

/** The holder of the token with this hash: one strongly consistent read, so a token rotated a moment ago is refused. */
export async function findTokenOwner(tokenHash: string): Promise<TokenOwner | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName('tokens'), Key: { token_hash: tokenHash }, ConsistentRead: true }));
  const item = out.Item as TokenItem | undefined;
  if (!item) return undefined;
  return { userId: item.user_id, tenantId: item.tenant_id, tokenExpiresAt: item.expires_at };
}

/** An item a request reads by key in the same BatchGetItem as its token (`readWithToken`). */
export interface TokenSideRead {
  table: TableKey;
  key: Record<string, unknown>;
  /** Only these attributes. */
  attributes?: readonly string[];
}

/**
 * The token's holder and, in the same strongly consistent BatchGetItem, the items `reads` name (null where absent),
 * whoever they belong to: the caller checks ownership before using them. The read of an unknown token costs
 * the one call its GetItem would.
 */
export async function findTokenOwnerWith<K extends string>(tokenHash: string, reads: Readonly<Record<K, TokenSideRead>>): Promise<{ owner: TokenOwner | undefined; items: Record<K, Record<string, unknown> | null> }> {
  const { credential, items } = await readBesideCredential({ table: 'tokens', key: { token_hash: tokenHash } }, reads);
  const token = credential as TokenItem | null;
  return { owner: token ? { userId: token.user_id, tenantId: token.tenant_id, tokenExpiresAt: token.expires_at } : undefined, items };
}

/**
 * The request's credential item (a token's, or a console session's) and, in the same strongly consistent
 * BatchGetItem, the items `reads` name (null where absent), whoever they belong to.
 */
export async function readBesideCredential<K extends string>(credentialRead: TokenSideRead, reads: Readonly<Record<K, TokenSideRead>>): Promise<{ credential: Record<string, unknown> | null; items: Record<K, Record<string, unknown> | null> }> {
  const credentialTable = tableName(credentialRead.table);
  const requests: Record<string, { Keys: Record<string, unknown>[]; ConsistentRead: true; ProjectionExpression?: string; ExpressionAttributeNames?: Record<string, string> }> = { [credentialTable]: { Keys: [credentialRead.key], ConsistentRead: true } };
  const entries = Object.entries(reads) as Array<[K, TokenSideRead]>;
  for (const [, read] of entries) {
    const table = tableName(read.table);
    const names = read.attributes ? Object.fromEntries(read.attributes.map((a, i) => [`#a${i}`, a])) : undefined;
    // One key per table here: two reads of one table would need their projections merged.
    if (requests[table]) throw new Error(`readWithToken: one read per table (${read.table})`);
    requests[table] = { Keys: [read.key], ConsistentRead: true, ...(names ? { ProjectionExpression: Object.keys(names).join(', '), ExpressionAttributeNames: names } : {}) };
  }
  const found = await batchGetAll(requests);
  const credential = found[credentialTable]?.[0] ?? null;
  const matches = (item: Record<string, unknown>, key: Record<string, unknown>) => Object.entries(key).every(([k, v]) => item[k] === v);
  const items = Object.fromEntries(entries.map(([name, read]) => [name, found[tableName(read.table)]?.find((item) => matches(item, read.key)) ?? null])) as Record<K, Record<string, unknown> | null>;
  return { credential, items };
}

/**
 * A taken id or token hash is the caller's mistake: DynamoDB's cancellation is thrown as it comes. An agent
 * (`agent`) names its upline and parent (the `by-parent` index lists a parent's agents); its parent must still
 * exist and not be suspended, checked in the same transaction, so no agent is created under one removed or
 * suspended meanwhile (false then).
 */
export async function createUser(user: {
  userId: string;
  tenantId: string;
  name: string;
  balance: number;
  tokenHash: string;
  createdAt: number;
  agent?: { upline: readonly string[]; contact: string };
}): Promise<boolean> {
  const agent = user.agent;
  const parentId = agent?.upline[agent.upline.length - 1];
  const items = [
    {
      Put: {
        TableName: tableName('users'),
        Item: {
          user_id: user.userId,
          tenant_id: user.tenantId,
          name: user.name,
          balance: user.balance,
          token_hash: user.tokenHash,
          created_at: user.createdAt,
          ...(agent && parentId ? { upline: [...agent.upline], parent_id: parentId, contact: agent.contact } : {}),
        },
        ConditionExpression: 'attribute_not_exists(user_id)',
      },
    },
    { Put: { TableName: tableName('tokens'), Item: tokenItem({ ...user, tokenExpiresAt: undefined }), ConditionExpression: 'attribute_not_exists(token_hash)' } },
    ...(parentId
      ? [
          {
            ConditionCheck: {
              TableName: tableName('users'),
              Key: { user_id: parentId },
              ConditionExpression: 'attribute_exists(user_id) AND tenant_id = :t AND (attribute_not_exists(suspended) OR suspended = :no)',
              ExpressionAttributeValues: { ':t': user.tenantId, ':no': false },
            },
          },
        ]
      : []),
  ];
  if (!parentId) {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  }
  const outcome = await transactWrite(items);
  return outcome.ok;
}

/** A parent's agents (one level down), oldest first, from the sparse `by-parent` index. */
export async function listAgentsOf(parentId: string): Promise<User[]> {
  const agents: User[] = [];
  for await (const item of queryItems({ TableName: tableName('users'), IndexName: 'by-parent', KeyConditionExpression: 'parent_id = :p', ExpressionAttributeValues: { ':p': parentId } })) {
    agents.push(userFromItem(item));
  }
  return agents;
}

/**
 * The low-balance thresholds parents set for `agents` (the `by-parent` index does not project them), read by
 * key in groups of 100 and set on each: the agent list shows which agents are below theirs.
 */
export async function withLowBalance(agents: User[]): Promise<User[]> {
  if (agents.length === 0) return agents;
  const items = await batchGet(tableName('users'), agents.map((a) => ({ user_id: a.userId })), ['user_id', 'agent_low_threshold', 'agent_low_at']);
  const byId = new Map(items.map((i) => [String(i.user_id), i] as const));
  return agents.map((a) => ({ ...a, lowBalance: Number(byId.get(a.userId)?.agent_low_threshold ?? 0), lowBalanceSince: byId.get(a.userId)?.agent_low_at as number | undefined }));
}

/**
 * One page of a parent's agents (one level down), by id, from the `by-parent` index: one Query of at most
 * `limit` entries after the agent id `after`; `last` is the page's last id when the index holds more.
 */
export async function agentsPageOf(parentId: string, limit: number, after: string | undefined): Promise<{ agents: User[]; last: string | undefined }> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: tableName('users'),
      IndexName: 'by-parent',
      KeyConditionExpression: 'parent_id = :p',
      ExpressionAttributeValues: { ':p': parentId },
      Limit: limit,
      ...(after !== undefined ? { ExclusiveStartKey: { parent_id: parentId, user_id: after } } : {}),
    }),
  );
  return { agents: (out.Items ?? []).map(userFromItem), last: out.LastEvaluatedKey ? String(out.LastEvaluatedKey.user_id) : undefined };
}

/** Sets an agent's name, contact or suspension; only while `parentId` is still its parent. False: no such agent of it. */
export async function updateAgent(agentId: string, parentId: string, change: { name?: string | undefined; contact?: string | undefined; suspended?: boolean | undefined; lowBalance?: number | undefined }): Promise<boolean> {
  const sets: string[] = [];
  const values: Record<string, unknown> = { ':p': parentId };
  const names: Record<string, string> = {};
  if (change.name !== undefined) {
    names['#name'] = 'name';
    values[':name'] = change.name;
    sets.push('#name = :name');
  }
  if (change.contact !== undefined) {
    values[':contact'] = change.contact;
    sets.push('contact = :contact');
  }
  if (change.suspended !== undefined) {
    values[':suspended'] = change.suspended;
    sets.push('suspended = :suspended');
  }
  if (change.lowBalance !== undefined) {
    // The parent's low-balance threshold for the agent; the low-balance pass looks at it again at once.
    values[':low'] = change.lowBalance;
    values[':due'] = 'due';
    sets.push('agent_low_threshold = :low', 'balance_check = :due');
  }
  if (sets.length === 0) return (await getUser(agentId))?.upline.at(-1) === parentId;
  const outcome = await transactWrite([
    {
      Update: {
        TableName: tableName('users'),
        Key: { user_id: agentId },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'parent_id = :p',
        ExpressionAttributeValues: values,
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
      },
    },
  ]);
  return outcome.ok;
}

/**
 * Changes the user's token item and the user item together. The user's current hash is the condition, so a
 * concurrent rotation makes this one try again on the newer state.
 */
async function changeToken(userId: string, next: (user: User) => { userUpdate: string; values: Record<string, unknown>; removeOld: boolean; token: TokenItem }): Promise<User | undefined> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const user = await getUser(userId);
    if (!user) return undefined;
    const change = next(user);
    const tokens = tableName('tokens');
    const outcome = await transactWrite(
      [
        {
          Update: {
            TableName: tableName('users'),
            Key: { user_id: userId },
            UpdateExpression: change.userUpdate,
            ConditionExpression: 'token_hash = :current',
            ExpressionAttributeValues: { ...change.values, ':current': user.tokenHash },
          },
        },
        ...(change.removeOld ? [{ Delete: { TableName: tokens, Key: { token_hash: user.tokenHash } } }] : []),
        { Put: { TableName: tokens, Item: change.token } },
      ],
      { conflicts: 'report' },
    );
    if (outcome.ok) return { ...user, tokenHash: change.token.token_hash, tokenExpiresAt: change.token.expires_at };
  }
  throw new Error(`The token of ${userId} kept changing; try again`);
}

/** Replaces the token (the old one stops working at once) and clears any expiry. */
export function replaceToken(userId: string, tokenHash: string): Promise<User | undefined> {
  return changeToken(userId, (user) => ({
    userUpdate: 'SET token_hash = :h REMOVE token_expires_at',
    values: { ':h': tokenHash },
    removeOld: true,
    token: tokenItem({ ...user, tokenHash, tokenExpiresAt: undefined }),
  }));
}

export function expireToken(userId: string, at: number): Promise<User | undefined> {
  return changeToken(userId, (user) => ({
    userUpdate: 'SET token_expires_at = :t',
    values: { ':t': at },
    removeOld: false,
    token: tokenItem({ ...user, tokenExpiresAt: at }),
  }));
}
