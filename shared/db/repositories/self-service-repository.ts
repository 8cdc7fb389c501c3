/**
 * The customer's proof of a device, kept in the `udidCapture` table beside the captures it comes from:
 * one-time tickets (`ssticket#<tenant>#<sha256>`) and sessions (`sssession#<tenant>#<sha256>`). Only the
 * SHA-256 of a ticket or session id is stored, so a copy of the table opens nobody's session. Items carry
 * `expires_at` for TTL; the service checks the expiry itself (TTL deletes late).
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { deleteIf } from '../conditional-write';
import { documentClient } from '../client';
import { tableName } from '../table-names';
import { udidKey, type Device, type DeviceRecord } from '../../records/device';

const table = () => tableName('udidCapture');
const ticketScope = (tenantId: string, hash: string) => `ssticket#${tenantId}#${hash}`;
const sessionScope = (tenantId: string, hash: string) => `sssession#${tenantId}#${hash}`;

/** What a ticket or a session says: a device proven through the Profile Service, on one tenant. */
export interface StoredProof {
  tenant_id: string;
  udid: string;
  /** The source whose page the capture returned to; '' for the tenant's page. */
  source_id: string;
  product: string;
  device_name: string;
  /** When the device proved itself (its capture), epoch seconds: a device URL revoked since is not given back. */
  proven_at: number;
  expires_at: number;
}

/** Only the proof's own fields, whatever else an item held (its keys). */
function proofFields(p: StoredProof): StoredProof {
  // A proof stored before `proven_at` existed counts as proven at the epoch: any revocation is after it.
  return { tenant_id: p.tenant_id, udid: p.udid, source_id: p.source_id, product: p.product, device_name: p.device_name, proven_at: Number(p.proven_at ?? 0), expires_at: p.expires_at };
}

export async function putTicket(hash: string, proof: StoredProof): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { ...proofFields(proof), scope: ticketScope(proof.tenant_id, hash), item_key: 'ticket' } }));
}

/**
 * Removes the ticket and answers what it said: one conditional delete, so of any number of concurrent opens
 * exactly one gets it. Undefined when there is none (never issued, already used, another tenant's).
 */
export async function takeTicket(tenantId: string, hash: string): Promise<StoredProof | undefined> {
  const outcome = await deleteIf({
    TableName: table(),
    Key: { scope: ticketScope(tenantId, hash), item_key: 'ticket' },
    ConditionExpression: 'attribute_exists(#s)',
    ExpressionAttributeNames: { '#s': 'scope' },
    ReturnValues: 'ALL_OLD',
  });
  const item = outcome.written ? (outcome.output.Attributes as StoredProof | undefined) : undefined;
  return item && proofFields(item);
}

export async function putSession(hash: string, proof: StoredProof): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: table(), Item: { ...proofFields(proof), scope: sessionScope(proof.tenant_id, hash), item_key: 'session' } }));
}

export async function getSession(tenantId: string, hash: string): Promise<StoredProof | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: table(), Key: { scope: sessionScope(tenantId, hash), item_key: 'session' }, ConsistentRead: true }));
  return out.Item && proofFields(out.Item as StoredProof);
}

/** A certificate as the customer's page reads it: the record (no `.p12`, no profile) and its warranty start. */
export type UdidCertificate = DeviceRecord & { warranty_from?: number };

/**
 * Every certificate of a UDID on a tenant, whoever owns it, newest first (by time added, then by id): the devices table's `by-udid`
 * index, asked for each spelling of the UDID (a hex UDID may have been stored in either case).
 */
export async function listCertificatesOfUdid(tenantId: string, udid: string): Promise<UdidCertificate[]> {
  const spellings = [...new Set([udid, udidKey(udid), udid.toLowerCase()])];
  const pages = await Promise.all(
    spellings.map((spelling) =>
      documentClient().send(
        new QueryCommand({
          TableName: tableName('devices'),
          IndexName: 'by-udid',
          KeyConditionExpression: 'udid = :u',
          FilterExpression: 'tenant_id = :t',
          ExpressionAttributeValues: { ':u': spelling, ':t': tenantId },
          ScanIndexForward: false,
        }),
      ),
    ),
  );
  const items = pages.flatMap((page) => (page.Items ?? []) as UdidCertificate[]);
  // Two certificates added in the same second: the later id (a counter) is the newer one.
  return items.sort((a, b) => b.addtime - a.addtime || b.id - a.id);
}

/**
 * The one certificate a download hands out, with its `.p12` and profile: a plain read by kid, so the download
 * function carries none of the device repository's writers.
 */
export async function getCertificate(kid: string): Promise<Pick<Device, 'kid' | 'tenant_id' | 'udid' | 'zt' | 'pname' | 'p12' | 'mobileprovision' | 'addtime' | 'enabled'> | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName('devices'), Key: { kid }, ConsistentRead: true, AttributesToGet: ['kid', 'tenant_id', 'udid', 'zt', 'pname', 'p12', 'mobileprovision', 'addtime', 'enabled'] }),
  );
  return out.Item as Pick<Device, 'kid' | 'tenant_id' | 'udid' | 'zt' | 'pname' | 'p12' | 'mobileprovision' | 'addtime' | 'enabled'> | undefined;
}
