import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../client';
import { putIf } from '../conditional-write';
import { queryAll } from '../paging';
import { tableName } from '../table-names';
import { transactWrite, type TransactionPart } from '../transactions';
import type { SealedSecret } from '../../secrets/envelope-encryption';
import type { UdidCapture } from '../../records/udid-capture';

const table = () => tableName('udidCapture');
const tenantScope = (tenantId: string) => `tenant#${tenantId}`;
const ANCHORS = 'anchors';
const ownerKey = (tenantId: string, userId: string) => `${tenantId}#${userId}`;
/** Sorts by time, then id: 10 digits of Unix seconds keep the string order the time order. */
const capturedKey = (capture: Pick<UdidCapture, 'captured_at' | 'capture_id'>) => `${String(capture.captured_at).padStart(10, '0')}#${capture.capture_id}`;

/** A tenant's keys: the challenge's HMAC secret and the ticket's ES256 pair (the private half sealed). */
export interface StoredCaptureKeys {
  challenge_secret: SealedSecret;
  ticket_private: SealedSecret;
  ticket_public_jwk: Record<string, unknown>;
  ticket_kid: string;
  created_at: number;
}

export interface StoredProfileSigner {
  /** `{p12, password}` sealed: the p12 as base64. */
  sealed: SealedSecret;
  subject: string;
  sha256: string;
  not_after: number;
  updated_at: number;
}

export interface StoredTrustAnchor {
  sha256: string;
  subject: string;
  der_base64: string;
  added_at: number;
}

async function getItem<T>(scope: string, itemKey: string, consistent = false): Promise<T | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { scope, item_key: itemKey }, ConsistentRead: consistent }));
  return out.Item as T | undefined;
}

export function getCaptureKeys(tenantId: string): Promise<StoredCaptureKeys | undefined> {
  return getItem<StoredCaptureKeys>(tenantScope(tenantId), 'keys', true);
}

/** Stores the tenant's first keys; false when another writer stored theirs first (then use those). */
export async function putCaptureKeysOnce(tenantId: string, keys: StoredCaptureKeys): Promise<boolean> {
  const outcome = await putIf({
    TableName: table(),
    Item: { scope: tenantScope(tenantId), item_key: 'keys', ...keys },
    ConditionExpression: 'attribute_not_exists(#s)',
    ExpressionAttributeNames: { '#s': 'scope' },
  });
  return outcome.written;
}

export function getProfileSigner(tenantId: string): Promise<StoredProfileSigner | undefined> {
  return getItem<StoredProfileSigner>(tenantScope(tenantId), 'signer');
}

export async function putProfileSigner(tenantId: string, signer: StoredProfileSigner): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { scope: tenantScope(tenantId), item_key: 'signer', ...signer } }));
}

export async function deleteProfileSigner(tenantId: string): Promise<void> {
  await documentClient().send(new DeleteCommand({ TableName: table(), Key: { scope: tenantScope(tenantId), item_key: 'signer' } }));
}

export async function listTrustAnchors(): Promise<StoredTrustAnchor[]> {
  const items = await queryAll({ TableName: table(), KeyConditionExpression: '#s = :s', ExpressionAttributeNames: { '#s': 'scope' }, ExpressionAttributeValues: { ':s': ANCHORS } });
  return items as unknown as StoredTrustAnchor[];
}

export async function putTrustAnchor(anchor: StoredTrustAnchor): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { scope: ANCHORS, item_key: `anchor#${anchor.sha256}`, ...anchor } }));
}

/** False when no anchor had that fingerprint. */
export async function deleteTrustAnchor(sha256: string): Promise<boolean> {
  const out = await documentClient().send(new DeleteCommand({ TableName: table(), Key: { scope: ANCHORS, item_key: `anchor#${sha256}` }, ReturnValues: 'ALL_OLD' }));
  return out.Attributes !== undefined;
}

/**
 * Uses the challenge and records the capture in one transaction: a challenge already used (a replay) stores
 * nothing. False when the challenge was used before.
 */
export async function recordCapture(capture: UdidCapture, challengeNonce: string, challengeExpiresAt: number, also: readonly TransactionPart[] = []): Promise<boolean> {
  const scope = tenantScope(capture.tenant_id);
  const outcome = await transactWrite([
    {
      Put: {
        TableName: table(),
        Item: { scope, item_key: `challenge#${challengeNonce}`, used_at: capture.captured_at, capture_id: capture.capture_id, expires_at: challengeExpiresAt },
        ConditionExpression: 'attribute_not_exists(#s)',
        ExpressionAttributeNames: { '#s': 'scope' },
      },
    },
    {
      Put: {
        TableName: table(),
        Item: {
          scope,
          item_key: `capture#${capturedKey(capture)}`,
          ...(capture.owner_id ? { owner_key: ownerKey(capture.tenant_id, capture.owner_id), captured_key: capturedKey(capture) } : {}),
          ...capture,
        },
      },
    },
    ...also,
  ]);
  return outcome.ok;
}

export interface CapturePage {
  items: UdidCapture[];
  /** Opaque: the last item's sort key, for the next page. */
  next: string | undefined;
}

/** A reseller's captures on a tenant, newest first, `limit` per page. */
export async function listOwnerCaptures(tenantId: string, userId: string, limit: number, after: string | undefined): Promise<CapturePage> {
  const out = await documentClient().send(
    new QueryCommand({
      TableName: table(),
      IndexName: 'by-owner',
      KeyConditionExpression: 'owner_key = :o',
      ExpressionAttributeValues: { ':o': ownerKey(tenantId, userId) },
      ScanIndexForward: false,
      Limit: limit,
      ...(after
        ? { ExclusiveStartKey: { owner_key: ownerKey(tenantId, userId), captured_key: after, scope: tenantScope(tenantId), item_key: `capture#${after}` } }
        : {}),
    }),
  );
  const items = (out.Items ?? []) as unknown as (UdidCapture & { captured_key: string })[];
  const last = out.LastEvaluatedKey?.captured_key as string | undefined;
  return { items, next: last };
}

/** Every capture of a tenant (tests and the operator). */
export async function listTenantCaptures(tenantId: string): Promise<UdidCapture[]> {
  const items = await queryAll({
    TableName: table(),
    KeyConditionExpression: '#s = :s AND begins_with(item_key, :p)',
    ExpressionAttributeNames: { '#s': 'scope' },
    ExpressionAttributeValues: { ':s': tenantScope(tenantId), ':p': 'capture#' },
  });
  return items as unknown as UdidCapture[];
}
