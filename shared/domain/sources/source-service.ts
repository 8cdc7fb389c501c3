import { DomainError } from '../errors';
import { getSource, updateOwnedSource } from '../../db/repositories/source-repository';
import { getApp, publishDraft } from '../../db/repositories/app-repository';
import { appView, isCompleteDraft, type App } from './app';
import { isOwnedBy, sourceView, type Actor, type Source, type SourceSettings } from './source';
import type { TenantSettings } from '../tenants/tenant';
import { effectiveHealthAlert } from '../link-health/health-alert';
import { healthSchedule } from '../link-health/link-health';

export async function ownedSource(actor: Actor, sourceId: string): Promise<Source> {
  const source = await getSource(sourceId);
  // Missing and not-yours answer the same, so a caller cannot probe other owners' sources.
  if (!source || !isOwnedBy(source, actor)) throw new DomainError('source_not_found', 'source_not_found');
  return source;
}

/**
 * Applies only the supplied settings; `health_alert`, when supplied, replaces the stored object whole and
 * puts the source on (or takes it off) the link-health schedule in the same write.
 */
export async function updateSourceSettings(actor: Actor, sourceId: string, changes: Partial<SourceSettings>, now: number) {
  const schedule = changes.health_alert === undefined ? {} : healthSchedule(sourceId, effectiveHealthAlert(changes.health_alert), now);
  const updated = await updateOwnedSource(actor, sourceId, changes, now, schedule);
  if (!updated) throw new DomainError('source_not_found', 'source_not_found');
  return sourceView(updated);
}

/** Runs the rule-conflict checks, then publishes the draft in one transaction. */
export async function publishApp(actor: Actor, sourceId: string, appId: number, plan: TenantSettings, now: number) {
  const source = await ownedSource(actor, sourceId);
  const app = await getApp(sourceId, appId);
  if (!app) throw new DomainError('app_not_found', 'app_not_found');
  if (app.publish_status !== 'draft') throw new DomainError('conflict', 'already_published');
  if (!isCompleteDraft(app)) throw new DomainError('conflict', 'draft_incomplete');
  const quota = plan.publishedAppsPerSource;
  const quotaError = () => new DomainError('conflict', 'quota_exceeded', { params: { limit: quota } });
  if ((source.published_count ?? 0) >= quota) throw quotaError();

  const outcome = await publishDraft(actor, app, quota, now);
  switch (outcome) {
    case 'published':
      return appView({ ...app, publish_status: 'published', status: 1, published_at: now } satisfies App);
    case 'not_draft':
      throw new DomainError('conflict', 'already_published');
    case 'duplicate_version':
      throw new DomainError('conflict', 'duplicate_version');
    case 'quota_exceeded':
      throw quotaError();
    case 'not_owned':
      throw new DomainError('source_not_found', 'source_not_found');
  }
}
