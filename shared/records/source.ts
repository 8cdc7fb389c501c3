import { randomBytes } from 'node:crypto';
import { randomId } from '../ids';
import type { NewsItem, SourcePresentation } from './source-format';

/** Settings a source owner can change through the update-source endpoint. */
export interface SourceSettings extends SourcePresentation {
  name: string;
  message: string;
  identifier: string;
  source_icon: string;
  pay_url: string;
  encrypt_enabled: 0 | 1;
  open_black: 0 | 1;
  open_black2: 0 | 1;
  health_alert: Record<string, unknown>;
  /** `required`: only a reader with a valid device key gets the catalogue; others get the placeholder. */
  device_proof: DeviceProof;
}

export const DEVICE_PROOF = ['optional', 'required'] as const;
export type DeviceProof = (typeof DEVICE_PROOF)[number];

export interface Source extends SourceSettings {
  source_id: string;
  tenant_id: string;
  owner_id: string;
  app_count: number;
  published_count: number;
  created_at: number;
  updated_at: number;
  /** Signs this source's download links (HMAC-SHA256); base64url of 32 random bytes, never shown. */
  link_secret?: string;
  /** The source's JWE key (`dir`, A256GCM): base64url of 32 random bytes, shown only to the operator. */
  feed_key?: string;
  /** When `message` (the announcement) was last set; the feed dates the announcement's news item with it. */
  message_at?: number;
  /** The source's news items (the news API), oldest first as posted. */
  news?: NewsItem[];
}

/** A fresh secret or key: base64url of 32 random bytes. */
export const newSourceKey = (): string => randomBytes(32).toString('base64url');

/** A new source of `ownerId` on `tenantId` with default settings; response encryption is on by default. */
export function newSource(input: { tenantId: string; ownerId: string; name: string; now: number }): Source {
  return {
    source_id: randomId('s', 11),
    tenant_id: input.tenantId,
    owner_id: input.ownerId,
    name: input.name,
    message: '',
    identifier: '',
    source_icon: '',
    pay_url: '',
    encrypt_enabled: 1,
    open_black: 0,
    open_black2: 0,
    health_alert: {},
    device_proof: 'optional',
    app_count: 0,
    published_count: 0,
    created_at: input.now,
    updated_at: input.now,
    link_secret: newSourceKey(),
    feed_key: newSourceKey(),
  };
}

/** The acting token owner, on the tenant of the request's host. */
export interface Actor {
  tenantId: string;
  userId: string;
}

export function sourceUrl(sourceId: string): string {
  return `/api/rjy/${sourceId}/appstore`;
}

/** The built-in icon of the blocked document's placeholder app. */
export function sourceIconPath(sourceId: string): string {
  return `/api/rjy/${sourceId}/icon.png`;
}

export function isOwnedBy(source: Pick<Source, 'tenant_id' | 'owner_id'>, actor: Actor): boolean {
  return source.tenant_id === actor.tenantId && source.owner_id === actor.userId;
}

/** The fields the update response may show: no owner, tenant or internal counters. */
export function sourceView(source: Source): Record<string, unknown> {
  return {
    source_id: source.source_id,
    name: source.name,
    source_url: sourceUrl(source.source_id),
    message: source.message,
    encrypt_enabled: source.encrypt_enabled,
    app_count: source.app_count,
  };
}
