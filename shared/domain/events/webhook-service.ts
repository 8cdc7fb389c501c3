/**
 * What the webhook routes do: set (a new secret when there was none or when asked), show (never the
 * secret), remove, and send a signed `ping` now. Setting it again re-enables a webhook that 24 hours of
 * failures disabled.
 */
import { randomBytes } from 'node:crypto';
import { nowSeconds } from '../../clock';
import { getBalanceLowThreshold, setBalanceLowThreshold } from '../../db/repositories/balance-watch-repository';
import { deleteWebhook, getWebhook, putWebhook } from '../../db/repositories/webhook-repository';
import { DomainError } from '../errors';
import { randomId } from '../../ids';
import type { Actor } from '../../records/source';
import type { TokenOwner } from '../../records/user';
import { deliver, type DeliveryFetchOptions, type DeliveryResult } from './delivery';
import { EVENT_TYPES, PING_TYPE } from '../../records/event';
import { webhookView } from '../../records/webhook';

export interface WebhookSettings {
  url: string;
  /** Subscribed types; every type when not given. */
  events?: readonly string[] | undefined;
  rotateSecret?: boolean | undefined;
  /** Cents; 0 turns `balance.low` off. Unchanged when not given. */
  balanceLowThreshold?: number | undefined;
}

/** A token works on its own tenant's hosts only: elsewhere it names nobody. */
function requireOwnTenant(user: TokenOwner, actor: Actor): void {
  if (user.tenantId !== actor.tenantId) throw new DomainError('token_invalid', 'token_invalid');
}

function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export async function setWebhook(user: TokenOwner, actor: Actor, settings: WebhookSettings) {
  requireOwnTenant(user, actor);
  const now = nowSeconds();
  const existing = await getWebhook(actor.userId);
  const created = !existing || settings.rotateSecret === true;
  const webhook = await putWebhook({
    userId: actor.userId,
    tenantId: actor.tenantId,
    url: settings.url,
    events: [...new Set(settings.events ?? EVENT_TYPES)],
    secret: created ? newSecret() : existing.secret,
    // Deliveries cover events from the first setting on; a re-setting keeps that start.
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  });
  if (settings.balanceLowThreshold !== undefined) await setBalanceLowThreshold(actor.userId, settings.balanceLowThreshold);
  const threshold = settings.balanceLowThreshold ?? (await getBalanceLowThreshold(actor.userId));
  return {
    data: { webhook: webhookView(webhook), balance_low_threshold: threshold, ...(created ? { secret: webhook.secret } : {}) },
    created,
  };
}

export async function showWebhook(user: TokenOwner, actor: Actor) {
  requireOwnTenant(user, actor);
  const [webhook, threshold] = await Promise.all([getWebhook(actor.userId), getBalanceLowThreshold(actor.userId)]);
  return { webhook: webhook && webhook.tenantId === actor.tenantId ? webhookView(webhook) : null, balance_low_threshold: threshold };
}

export async function removeWebhook(user: TokenOwner, actor: Actor): Promise<{ deleted: boolean }> {
  requireOwnTenant(user, actor);
  return { deleted: await deleteWebhook(actor.userId) };
}

/** Sends a signed `ping` to the webhook now (not stored, not retried); what the receiver answered. */
export async function pingWebhook(user: TokenOwner, actor: Actor, fetchOptions: DeliveryFetchOptions = {}): Promise<{ event_id: string } & DeliveryResult> {
  requireOwnTenant(user, actor);
  const webhook = await getWebhook(actor.userId);
  if (!webhook) throw new DomainError('conflict', 'webhook_not_set');
  const now = nowSeconds();
  const id = randomId('ev_', 20);
  const result = await deliver(webhook.url, webhook.secret, { id, type: PING_TYPE, created: now, tenant_id: actor.tenantId, user_id: actor.userId, data: {} }, now, fetchOptions);
  return { event_id: id, ...result };
}
