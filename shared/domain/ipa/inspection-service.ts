/**
 * When the product reads an app's IPA, and what it does with what it read: after a draft is created or its
 * download URL changes (within the request's budget, else by the background job), and at publish, where the
 * stored inspection is reused when a `HEAD` shows the same file.
 */
import { queueInspection } from '../../db/repositories/ipa-inspection-repository';
import { untilCounted } from '../../db/write-gate';
import { storeInspection } from '../../db/repositories/app-repository';
import { DomainError } from '../errors';
import { isHttpUrl, type App } from '../../records/app';
import type { TenantSettings } from '../../records/tenant';
import type { FetchOverrides } from './ipa-download';
import type { IpaInspection } from '../../records/ipa-inspection';
import { inspectInRequest, type RequestInspection } from './inspector';
import { config } from '../../config';

/** Seconds an owner is told to wait before publishing again while the background job reads the file. */
export const PENDING_RETRY_SECONDS = 60;

/**
 * Inspection runs unless `IPA_INSPECTION=off`: the test suite's fixture apps point at hosts that do not exist
 * (its inspection tests turn it on); deployed, nothing sets it.
 */
export function inspectionEnabled(): boolean {
  return config().ipaInspection;
}

let testHooks: { fetch?: FetchOverrides; requestBudgetMs?: number } = {};
/** Tests only: how the inspector's fetches resolve and connect (see safe-fetch), and a shorter request budget. */
export function setInspectionTestHooks(hooks: { fetch?: FetchOverrides; requestBudgetMs?: number }): void {
  testHooks = hooks;
}

export async function inspectNow(app: App, settings: TenantSettings, now: number): Promise<RequestInspection> {
  // A request counted alongside its reads (publish) reaches the app's origin only once its count allows it.
  await untilCounted();
  return inspectInRequest(app.download_url.trim(), app.ipa, { maxBytes: settings.ipaMaxBytes, now, ...testHooks });
}

/** Stores a new inspection on the app (and queues the background job when it is pending). */
export async function keepInspection(app: App, inspection: IpaInspection, settings: TenantSettings): Promise<void> {
  const stored = await storeInspection(app.source_id, app.id, { ...inspection, url: app.download_url });
  if (stored && inspection.state === 'pending') {
    await queueInspection({ source_id: app.source_id, app_id: app.id, url: app.download_url, requested_at: inspection.requestedAt, max_bytes: settings.ipaMaxBytes });
  }
}

/** After a draft was created or its download URL changed: read the IPA now, or leave it to the job. */
export async function inspectDraft(app: App, settings: TenantSettings, now: number): Promise<App> {
  if (!inspectionEnabled() || !isHttpUrl(app.download_url.trim()) || app.publish_status !== 'draft') return app;
  const { inspection } = await inspectNow({ ...app, ipa: undefined }, settings, now);
  const stored = { ...inspection, url: app.download_url };
  await keepInspection(app, stored, settings);
  return { ...app, ipa: stored };
}

/** IPA values go into a message: printable, short. */
function shown(value: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > 64 ? `${clean.slice(0, 63)}…` : clean || '""';
}

/** Why publishing must refuse this app given its inspection, or undefined when the IPA is what the app says. */
export function publishRefusal(app: App, inspection: IpaInspection, settings: TenantSettings): DomainError | undefined {
  switch (inspection.state) {
    case 'pending':
      return new DomainError('conflict', 'ipa_pending', { fields: ['download_url'], params: { seconds: PENDING_RETRY_SECONDS }, data: { retry_after: PENDING_RETRY_SECONDS } });
    case 'failed':
      switch (inspection.failure) {
        case 'invalid':
          return new DomainError('conflict', 'ipa_invalid', { fields: ['download_url'] });
        case 'too_large':
          return new DomainError('conflict', 'ipa_invalid', { fields: ['download_url'], messageKey: 'ipa_too_large', params: { limit: settings.ipaMaxBytes }, data: { limit: settings.ipaMaxBytes } });
        case 'timeout':
          return new DomainError('conflict', 'ipa_unreachable', { fields: ['download_url'], messageKey: 'ipa_slow' });
        case 'unreachable':
          return new DomainError('conflict', 'ipa_unreachable', { fields: ['download_url'], data: inspection.status !== undefined ? { status: inspection.status } : {} });
      }
      break;
    case 'ok': {
      const facts = inspection.facts;
      const mismatches = [
        ...(facts.bundleIdentifier !== app.bundle_identifier ? [{ field: 'bundle_identifier', app: app.bundle_identifier, ipa: facts.bundleIdentifier }] : []),
        ...(facts.version !== app.version ? [{ field: 'version', app: app.version, ipa: facts.version }] : []),
      ].map((m) => ({ ...m, app: shown(m.app), ipa: shown(m.ipa) }));
      if (mismatches.length === 0) return undefined;
      const first = mismatches[0]!;
      return new DomainError('conflict', 'ipa_mismatch', {
        fields: mismatches.map((m) => m.field),
        params: { field: first.field, app_value: first.app, ipa_value: first.ipa },
        data: { mismatches },
      });
    }
  }
  return undefined;
}

/** The hook the create and edit functions hand the source service: a new download URL is a new file, read again. */
export const inspectAfterWrite =
  (settings: TenantSettings, now: number) =>
  (app: App, change: { newDownloadUrl: boolean }): Promise<App> =>
    change.newDownloadUrl ? inspectDraft(app, settings, now) : Promise.resolve(app);
