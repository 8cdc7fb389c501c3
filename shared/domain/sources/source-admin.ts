import { getSource, putNewSource } from '../../db/repositories/source-repository';
import { putNewFeedDocument } from '../../db/repositories/feed-document-repository';
import { createDraft } from '../../db/repositories/app-repository';
import { RuleError } from '../errors';
import { randomId } from '../ids';
import { requireUser } from '../users/user-service';
import type { App, AppMetadata } from './app';
import { newSourceKey, type Source } from './source';

const sourceNotFound = (sourceId: string) => new RuleError('source_not_found', `unknown source ${sourceId}`);

/** A new source owned by the user on the user's tenant; response encryption is on by default. */
export async function createSource(input: { userId: string; name?: string | undefined }, now: number): Promise<Source> {
  const user = await requireUser(input.userId);
  const source: Source = {
    source_id: randomId('s', 11),
    tenant_id: user.tenantId,
    owner_id: user.userId,
    name: input.name ?? 'My source',
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
    created_at: now,
    updated_at: now,
    link_secret: newSourceKey(),
    feed_key: newSourceKey(),
  };
  await putNewSource(source);
  await putNewFeedDocument(source.source_id);
  return source;
}

/** Adds a draft as the operator (no owner check, no plan quota); completeness is checked at publish. */
export async function createApp(sourceId: string, metadata: Partial<AppMetadata>, now: number): Promise<App> {
  if (!(await getSource(sourceId))) throw sourceNotFound(sourceId);
  const outcome = await createDraft({ sourceId, metadata, now });
  if (!('created' in outcome)) throw sourceNotFound(sourceId);
  return outcome.created;
}
