import { getSource } from '../../db/repositories/source-repository';
import { listApps } from '../../db/repositories/app-repository';
import { DomainError } from '../errors';
import { isInstallWithheld } from '../devices/device-service';
import type { DeviceSelector } from '../devices/device-params';
import { sourceUrl } from './source';

/**
 * The public feed sideloading clients read: the source's settings and its published apps, newest first.
 * Drafts never appear. When the installing `device` is one the source's owner disabled, the download URLs
 * are left out (a disabled device cannot install).
 */
export async function sourceFeed(sourceId: string, options: { device?: DeviceSelector | undefined } = {}) {
  const source = await getSource(sourceId);
  if (!source) throw new DomainError('source_not_found', 'source_not_found');
  const withholdDownloads = options.device
    ? await isInstallWithheld({ userId: source.owner_id, tenantId: source.tenant_id }, options.device)
    : false;
  const apps = (await listApps(sourceId))
    .filter((app) => app.publish_status === 'published')
    .sort((a, b) => (b.published_at ?? 0) - (a.published_at ?? 0) || b.id - a.id);
  return {
    name: source.name,
    identifier: source.identifier,
    sourceURL: sourceUrl(source.source_id),
    message: source.message,
    iconURL: source.source_icon,
    payURL: source.pay_url,
    apps: apps.map((app) => ({
      id: app.id,
      name: app.name,
      version: app.version,
      ...(withholdDownloads ? {} : { downloadURL: app.download_url }),
    })),
  };
}
