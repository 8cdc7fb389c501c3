/**
 * What a source owner does with whole sources through the API: create one within the plan, list them, read
 * one back, delete it; list a source's apps and delete a draft.
 */
import { getSubscription } from '../../db/repositories/subscription-repository';
import {
  createCountedSource,
  deleteDraft,
  deleteOwnedSource,
  listOwnedSources,
  listSourceApps,
  purgeSourceItems,
  type PLAN_COUNTED,
} from '../../db/repositories/source-lifecycle-repository';
import { DomainError } from '../errors';
import { effectiveHealthAlert } from '../../records/health-alert';
import { healthSchedule } from '../../records/link-health';
import { isActive } from '../../records/subscription';
import { appDetailView, type App } from '../../records/app';
import { newSource, sourceUrl, type Actor, type Source, type SourceSettings } from '../../records/source';
import { ownedApp, ownedSource } from './source-service';

/** How long a delete request itself spends removing a source's items before leaving the rest to the purge job. */
const INLINE_PURGE_MS = 3_000;

/** Every setting the owner may see, and how many drafts and published apps the source holds. No secrets, no owner. */
export function sourceDetailView(source: Source): Record<string, unknown> {
  const published = source.published_count ?? 0;
  return {
    source_id: source.source_id,
    name: source.name,
    source_url: sourceUrl(source.source_id),
    message: source.message,
    identifier: source.identifier,
    source_icon: source.source_icon,
    pay_url: source.pay_url,
    encrypt_enabled: source.encrypt_enabled,
    open_black: source.open_black,
    open_black2: source.open_black2,
    health_alert: source.health_alert ?? {},
    // The presentation settings and device proof, as the update route takes them: a form starts from these.
    subtitle: source.subtitle ?? '',
    description: source.description ?? '',
    header_url: source.header_url ?? '',
    website: source.website ?? '',
    tint_color: source.tint_color ?? '',
    featured_apps: source.featured_apps ?? [],
    device_proof: source.device_proof ?? 'optional',
    app_count: source.app_count ?? 0,
    draft_count: Math.max(0, (source.app_count ?? 0) - published),
    published_count: published,
    created_at: source.created_at,
    updated_at: source.updated_at,
  };
}

/** A new source of the actor's, taking one source of the plan; refused without a running subscription or room. */
export async function createOwnedSource(actor: Actor, settings: Partial<SourceSettings> & { name: string }, now: number) {
  const source: Source = { ...newSource({ tenantId: actor.tenantId, ownerId: actor.userId, name: settings.name, now }), ...settings };
  const schedule = settings.health_alert === undefined ? {} : (healthSchedule(source.source_id, effectiveHealthAlert(settings.health_alert), now).set ?? {});
  const outcome = await createCountedSource(source, schedule, now);
  if (outcome.ok) return sourceDetailView(source);
  const subscription = await getSubscription(actor.userId);
  if (!subscription || subscription.tenantId !== actor.tenantId) throw new DomainError('conflict', 'subscription_required');
  if (!isActive(subscription, now)) throw new DomainError('conflict', 'subscription_expired', { data: { expires_at: subscription.expiresAt } });
  const limit = subscription.limits.sources;
  throw new DomainError('conflict', 'quota_exceeded', { messageKey: 'sources_quota_exceeded', params: { limit }, data: { limit } });
}

/** An opaque position in a listing: base64url of the last item's id. */
export const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');

export async function listSources(actor: Actor, page: { limit: number; after: string | undefined }) {
  const { items, next } = await listOwnedSources(actor, page.limit, page.after);
  return { sources: items.map(sourceDetailView), next_cursor: next === undefined ? null : encodeCursor(next) };
}

export async function readSource(actor: Actor, sourceId: string) {
  return sourceDetailView(await ownedSource(actor, sourceId));
}

/**
 * Deletes the source: its feed answers 404 from this moment (the source item is gone in the first write),
 * its place in the plan is given back, and its apps, unlock codes, block list and health records are removed
 * now if that is quick, else by the purge job. Nothing of it is visible in between: every reader starts at
 * the source item.
 */
export async function deleteSource(actor: Actor, sourceId: string, now: number) {
  const source = (await ownedSource(actor, sourceId)) as Source & { [PLAN_COUNTED]?: boolean };
  if (!(await deleteOwnedSource(actor, source, now))) throw new DomainError('source_not_found', 'source_not_found');
  const purged = await purgeSourceItems(sourceId, Date.now() + INLINE_PURGE_MS);
  return { source_id: sourceId, deleted: true, purge: purged ? 'done' : 'pending' };
}

export async function listApps(actor: Actor, sourceId: string, query: { limit: number; after: number | undefined; status: App['publish_status'] | undefined }) {
  await ownedSource(actor, sourceId);
  const { items, next } = await listSourceApps(sourceId, query);
  return { apps: items.map(appDetailView), next_cursor: next === undefined ? null : encodeCursor(next) };
}

/** Deletes a draft; a published app must be unpublished first (40003 `app_published`). */
export async function deleteApp(actor: Actor, sourceId: string, appId: number) {
  const { app } = await ownedApp(actor, sourceId, appId);
  if (app.publish_status !== 'draft') throw new DomainError('conflict', 'app_published');
  const outcome = await deleteDraft(actor, sourceId, appId);
  if (outcome === 'deleted') return { source_id: sourceId, id: appId, deleted: true };
  if (outcome === 'not_owned') throw new DomainError('source_not_found', 'source_not_found');
  // Published or deleted meanwhile: say which.
  await ownedApp(actor, sourceId, appId);
  throw new DomainError('conflict', 'app_published');
}
