/**
 * UDID capture end to end: the profile a customer installs, the device's signed answer, and the resellers'
 * view of what was captured. Nothing is stored for a submission that does not verify.
 */
import { randomId } from '../../ids';
import { DomainError } from '../errors';
import { getUser } from '../../db/repositories/user-repository';
import { recordCapture } from '../../db/repositories/udid-capture-repository';
import { eventPart } from '../events/outbox';
import type { Source } from '../../records/source';
import type { Tenant } from '../../records/tenant';
import { captureEventData, type UdidCapture } from '../../records/udid-capture';
import { signingKeys } from './capture-keys';
import { issueChallenge, readChallenge } from './challenge';
import { DeviceResponseError, verifyDeviceResponse } from './device-response';
import { MOBILECONFIG_TYPE, profilePlist, signProfile, tenantSigner } from './profile';
import { issueTicket } from './ticket';
import { trustAnchorsDer } from './trust-anchors';
import { installPagePath } from './install-page-path';
import { isAllowedReturn } from './return-targets';
import { installPart } from '../../db/repositories/app-tally-repository';

export const CALLBACK_PATH = '/api/udid/callback';

export { installPagePath };


export interface ProfileRequest {
  tenant: Tenant;
  /** Absolute URL prefix of the request (scheme, host, base path): the callback lives on the same host. */
  baseUrl: string;
  source?: Source;
  /** The tenant profile's `user`: a reseller of this tenant the captures are listed for. */
  userId?: string;
  returnUrl?: string;
  description: string;
  now: number;
  /** An agent's storefront selling here: its name and id stand in the profile instead of the tenant's. */
  brand?: { agentId: string; name: string };
}

export interface ProfileAnswer {
  body: Buffer;
  contentType: string;
  signed: boolean;
}

export async function buildProfile(request: ProfileRequest): Promise<ProfileAnswer> {
  const { tenant, source, now } = request;
  let ownerId = source?.owner_id ?? '';
  if (!source && request.userId) {
    const user = await getUser(request.userId);
    if (!user || user.tenantId !== tenant.tenantId) throw new DomainError('validation', 'invalid_value', { fields: ['user'] });
    ownerId = user.userId;
  }
  const returnUrl = request.returnUrl ?? (source ? `${request.baseUrl}${installPagePath(source.source_id)}` : '');
  if (!returnUrl) throw new DomainError('validation', 'return_required', { fields: ['return'] });
  if (!isAllowedReturn(returnUrl, tenant, request.baseUrl)) throw returnRefused();
  const keys = await signingKeys(tenant.tenantId, now);
  const challenge = await issueChallenge(keys.challengeSecret, { tenantId: tenant.tenantId, sourceId: source?.source_id ?? '', ownerId, returnUrl }, now);
  const identity = request.brand ? { tenantId: request.brand.agentId, tenantName: request.brand.name } : { tenantId: tenant.tenantId, tenantName: tenant.name };
  const xml = profilePlist({ ...identity, callbackUrl: `${request.baseUrl}${CALLBACK_PATH}`, challenge: challenge.token, description: request.description });
  const signer = await tenantSigner(tenant.tenantId);
  if (!signer) return { body: Buffer.from(xml, 'utf8'), contentType: MOBILECONFIG_TYPE, signed: false };
  return { body: await signProfile(xml, signer), contentType: MOBILECONFIG_TYPE, signed: true };
}

/** `url` with the capture's parameters added to its query. */
export function withCaptureParams(url: string, udid: string, ticket: string): string {
  const target = new URL(url);
  target.searchParams.set('udid', udid);
  target.searchParams.set('ticket', ticket);
  return target.toString();
}

export interface CaptureAnswer {
  location: string;
  capture: UdidCapture;
  ticket: string;
}

/** A return target that is neither one of the tenant's hosts nor one its operator registered. */
const returnRefused = () => new DomainError('validation', 'return_not_allowed', { fields: ['return'] });

const refused = (reason: 'device_response_malformed' | 'device_signature_invalid' | 'device_signer_untrusted' | 'device_attributes_invalid' | 'challenge_invalid' | 'challenge_expired' | 'challenge_used') =>
  new DomainError('validation', reason, { fields: ['body'] });

/** The owner's `udid.captured` event, written with the capture (never the serial number). */
function udidCapturedPart(capture: UdidCapture) {
  return eventPart('udid.captured', { tenantId: capture.tenant_id, userId: capture.owner_id }, captureEventData(capture));
}

/**
 * Verifies a device's answer and records the capture; any failure is a refusal that stores nothing. The
 * challenge's return target is checked again (`baseUrl`: the callback's own host, the profile's): a target the
 * operator unregistered since the profile was made receives nothing.
 */
export async function acceptDeviceResponse(tenant: Tenant, der: Uint8Array, baseUrl: string, now: number): Promise<CaptureAnswer> {
  let attributes;
  try {
    attributes = await verifyDeviceResponse(der, await trustAnchorsDer());
  } catch (error) {
    if (error instanceof DeviceResponseError) throw refused(error.problem);
    throw error;
  }
  const keys = await signingKeys(tenant.tenantId, now);
  const challenge = await readChallenge(keys.challengeSecret, attributes.challenge, tenant.tenantId, now);
  if (typeof challenge === 'string') throw refused(challenge);
  if (!isAllowedReturn(challenge.returnUrl, tenant, baseUrl)) throw returnRefused();
  const capture: UdidCapture = {
    capture_id: randomId('cap_'),
    tenant_id: tenant.tenantId,
    source_id: challenge.sourceId,
    owner_id: challenge.ownerId,
    udid: attributes.udid,
    product: attributes.product,
    version: attributes.version,
    serial: attributes.serial,
    device_name: attributes.deviceName,
    return_url: challenge.returnUrl,
    captured_at: now,
    verified: true,
  };
  // The used challenge stays on record until well after it expired, so a replay finds it.
  const event = capture.owner_id ? [udidCapturedPart(capture)] : [];
  // A capture through a source's page is an install of that source: counted per UTC day in the same write.
  const install = capture.owner_id && capture.source_id ? [installPart(capture.owner_id, capture.source_id, capture.captured_at)] : [];
  if (!(await recordCapture(capture, challenge.nonce, challenge.expiresAt + 86_400, [...event, ...install]))) throw refused('challenge_used');
  const ticket = await issueTicket(keys, capture);
  return { location: withCaptureParams(challenge.returnUrl, capture.udid, ticket), capture, ticket };
}
