import { DomainError } from '../errors';
import type { TransactionPart } from '../../db/transactions';
import { getSource, updateOwnedSource, updateSourceAsRead, type SourceAsRead } from '../../db/repositories/source-repository';
import { subscriptionFromItem } from '../../db/repositories/subscription-repository';
import type { Subscription } from '../../records/subscription';
import { createDraft, getAppWithSource, unpublishApp as unpublishStoredApp, updateAppFields } from '../../db/repositories/app-repository';
import { appDetailView, PUBLISHED_EDITABLE_FIELDS, type App, type AppMetadata } from '../../records/app';
import { isOwnedBy, sourceView, type Actor, type Source, type SourceSettings } from '../../records/source';
import { ownedSource } from './source-lookup';
import type { TenantSettings } from '../../records/tenant';
import { effectiveHealthAlert } from '../../records/health-alert';
import { healthSchedule } from '../../records/link-health';

/**
 * What happens to an app right after a create or an edit wrote it (the IPA inspection, for the functions that
 * run it); kept out of this module so the other source functions do not carry that code.
 */
export type AfterAppWrite = (app: App, change: { newDownloadUrl: boolean }) => Promise<App>;

export const sourceNotFound = () => new DomainError('source_not_found', 'source_not_found');
const appNotFound = () => new DomainError('app_not_found', 'app_not_found');

export { ownedSource };

export async function ownedApp(actor: Actor, sourceId: string, appId: number): Promise<{ source: Source; app: App }> {
  const { source, app } = await getAppWithSource(sourceId, appId);
  if (!source || !isOwnedBy(source, actor)) throw sourceNotFound();
  if (!app) throw appNotFound();
  return { source, app };
}

/** The same, with the actor's subscription read in the same call. */
export async function ownedAppAndSubscription(actor: Actor, sourceId: string, appId: number): Promise<{ source: Source; app: App; subscription: Subscription | undefined }> {
  const { source, app, subscription } = await getAppWithSource(sourceId, appId, actor.userId);
  if (!source || !isOwnedBy(source, actor)) throw sourceNotFound();
  if (!app) throw appNotFound();
  return { source, app, subscription: subscription ? subscriptionFromItem(subscription) : undefined };
}

/**
 * A condition on the owner that a write carries beside the source in its transaction (the right to write on a
 * tenant that sells plans: subscriptions/write-condition.ts), and what its failure answers.
 */
export interface WriteCondition {
  part: TransactionPart;
  /** Throws the refusal a failed condition means, from the item as the condition saw it (raw, none if absent). */
  refused(seen: Record<string, unknown> | undefined): never;
  /** The same judgement made by a read, for a request that writes no transaction (or answers 404 instead). */
  judged(): Promise<unknown>;
}

/**
 * Applies only the supplied settings; `health_alert`, when supplied, replaces the stored object whole and
 * puts the source on (or takes it off) the link-health schedule in the same write. `condition`, when given,
 * is judged before anything is answered: carried by the transaction when the source was read with the token,
 * by a read otherwise (and before a 404, as when it was always read first).
 */
export async function updateSourceSettings(actor: Actor, sourceId: string, changes: Partial<SourceSettings>, now: number, known?: SourceAsRead | null, condition?: WriteCondition) {
  const schedule = changes.health_alert === undefined ? {} : healthSchedule(sourceId, effectiveHealthAlert(changes.health_alert), now);
  // The feed dates the announcement's news item with the time its text was set.
  const internal = changes.message === undefined ? schedule : { ...schedule, set: { ...schedule.set, message_at: now } };
  if (known === undefined) {
    await condition?.judged();
    const updated = await updateOwnedSource(actor, sourceId, changes, now, internal);
    if (!updated) throw sourceNotFound();
    return sourceView(updated);
  }
  // Read with the token: checked to be the actor's, then written on the condition that what the answer shows
  // of it is still what was read (a transaction returns nothing to answer from); read again when it is not.
  let source = known;
  for (let attempt = 0; attempt < MAX_SETTINGS_ATTEMPTS; attempt++) {
    if (!source || source.source_id !== sourceId || !isOwnedBy(source, actor)) {
      await condition?.judged();
      throw sourceNotFound();
    }
    const outcome = await updateSourceAsRead(actor, source, changes, now, internal, condition?.part);
    if (outcome.written) return sourceView({ ...source, ...changes } as Source);
    if (outcome.conditionFailed) condition!.refused(outcome.seen);
    source = (await getSource(sourceId)) ?? null;
  }
  throw new DomainError('unavailable', 'internal_error');
}

const MAX_SETTINGS_ATTEMPTS = 8;

/** A new draft in the actor's source, within the plan's quota of apps per source. */
export async function createAppDraft(actor: Actor, sourceId: string, metadata: Partial<AppMetadata>, plan: TenantSettings, now: number, after?: AfterAppWrite) {
  await ownedSource(actor, sourceId);
  const outcome = await createDraft({ sourceId, metadata, now, quota: plan.appsPerSource, actor });
  if ('created' in outcome) return appDetailView(after ? await after(outcome.created, { newDownloadUrl: true }) : outcome.created);
  if (outcome.refused === 'not_owned') throw sourceNotFound();
  throw new DomainError('conflict', 'quota_exceeded', { params: { limit: plan.appsPerSource }, data: { limit: plan.appsPerSource } });
}

/**
 * Edits an app. A draft may change anything; a published app only its presentation (the fields a client
 * shows, never what identifies the release or where it downloads from), else `published_immutable`.
 */
export async function editApp(actor: Actor, sourceId: string, appId: number, changes: Partial<AppMetadata>, now: number, after?: AfterAppWrite) {
  // The write is conditional on the publish state the change was judged against; if the app was published
  // or unpublished meanwhile, it is judged again.
  for (let attempt = 0; attempt < 3; attempt++) {
    const { app } = await ownedApp(actor, sourceId, appId);
    if (app.publish_status === 'published') {
      const immutable = Object.keys(changes).filter((f) => !(PUBLISHED_EDITABLE_FIELDS as readonly string[]).includes(f));
      if (immutable.length) throw new DomainError('conflict', 'published_immutable', { fields: immutable });
    }
    const updated = await updateAppFields(app, changes, now);
    const newDownloadUrl = changes.download_url !== undefined && changes.download_url !== app.download_url;
    if (updated) return appDetailView(after ? await after(updated, { newDownloadUrl }) : updated);
  }
  throw new DomainError('conflict', 'app_changed');
}

/** Takes a published app out of the feed; it is a draft again and can be edited and published anew. */
export async function unpublishApp(actor: Actor, sourceId: string, appId: number, now: number) {
  await ownedSource(actor, sourceId);
  const outcome = await unpublishStoredApp(actor, sourceId, appId, now);
  if (!outcome) throw appNotFound();
  if ('unpublished' in outcome) return appDetailView(outcome.unpublished);
  if (outcome.refused === 'not_owned') throw sourceNotFound();
  throw new DomainError('conflict', 'not_published');
}

