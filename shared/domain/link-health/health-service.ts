/** The owner's view of link health (the on-demand check, which fetches, is health-check-service.ts). */
import { listApps } from '../../db/repositories/app-repository';
import { listHealthRecords } from '../../db/repositories/link-health-repository';
import { ownedSource } from '../sources/source-lookup';
import type { Actor } from '../../records/source';
import { appHealthView } from '../../records/link-health';

/** Every published app of the owner's source with its last recorded health. */
export async function sourceHealth(actor: Actor, sourceId: string) {
  const source = await ownedSource(actor, sourceId);
  const [apps, records] = await Promise.all([listApps(source.source_id), listHealthRecords(source.source_id)]);
  return {
    source_id: source.source_id,
    apps: apps.filter((app) => app.publish_status === 'published').map((app) => appHealthView(app, records.get(app.id))),
  };
}
