/**
 * Publishing a draft: its own module because only publishing fetches on a user's behalf (the size lookup),
 * and the other source functions should not carry the fetch code.
 */
import { DomainError } from '../errors';
import { publishDraft } from '../../db/repositories/app-repository';
import { appView, missingForPublish, type App, type AppField } from '../../records/app';
import type { Actor } from '../../records/source';
import { lookUpDownloadSize } from './size-lookup';
import type { TenantSettings } from '../../records/tenant';
import { ownedAppAndSubscription, sourceNotFound } from './source-service';
import type { Subscription } from '../../records/subscription';
import { inspectionEnabled, inspectNow, keepInspection, publishRefusal } from '../ipa/inspection-service';
import type { IpaInspection } from '../../records/ipa-inspection';

/**
 * Runs the rule-conflict checks, then publishes the draft in one transaction. The IPA at the download URL is
 * read (or its stored inspection reused when the file is unchanged) and must be what the app says; its size
 * is the app's size. A draft that still lacks anything publishing needs is refused naming each missing field.
 * With inspection off (`IPA_INSPECTION=off`), a draft without a size gets it from a `HEAD` as before.
 */
/** `limitsOf` judges the owner's plan from their subscription, read with the app (no call of its own). */
export async function publishApp(actor: Actor, sourceId: string, appId: number, limitsOf: (subscription: Subscription | undefined) => TenantSettings, now: number) {
  const { source, app, subscription } = await ownedAppAndSubscription(actor, sourceId, appId);
  const plan = limitsOf(subscription);
  if (app.publish_status !== 'draft') throw new DomainError('conflict', 'already_published');
  let missing: AppField[] = missingForPublish(app);
  let candidate = app;
  let freshInspection: IpaInspection | undefined;
  // Reading the IPA is worth it only once nothing else is missing.
  if (inspectionEnabled() && missing.every((f) => f === 'size')) {
    // The IPA decides the size; an unchanged file (same validators) costs one HEAD, not a download.
    const { inspection, fresh } = await inspectNow(app, plan, now);
    const stored = { ...inspection, url: app.download_url };
    const refusal = publishRefusal(app, stored, plan);
    if (refusal) {
      if (fresh) await keepInspection(app, stored, plan);
      throw refusal;
    }
    if (fresh) freshInspection = stored;
    if (stored.state === 'ok') {
      candidate = { ...app, size: stored.facts.size, ipa: stored };
      missing = missing.filter((f) => f !== 'size');
    }
  } else if (missing.includes('size') && !missing.includes('download_url')) {
    const size = await lookUpDownloadSize(app.download_url.trim());
    if (size !== undefined) {
      candidate = { ...app, size };
      missing = missing.filter((f) => f !== 'size');
    }
  }
  if (missing.length) throw new DomainError('conflict', 'draft_incomplete', { fields: missing });
  const quota = plan.publishedAppsPerSource;
  const quotaError = () => new DomainError('conflict', 'quota_exceeded', { params: { limit: quota }, data: { limit: quota } });
  if ((source.published_count ?? 0) >= quota) throw quotaError();

  const outcome = await publishDraft(actor, candidate, quota, now, freshInspection);
  switch (outcome) {
    case 'published':
      return appView({ ...candidate, publish_status: 'published', status: 1, published_at: now } satisfies App);
    case 'not_draft':
      throw new DomainError('conflict', 'already_published');
    case 'draft_changed':
      throw new DomainError('conflict', 'draft_changed');
    case 'duplicate_version':
      throw new DomainError('conflict', 'duplicate_version');
    case 'quota_exceeded':
      throw quotaError();
    case 'not_owned':
      throw sourceNotFound();
  }
}
