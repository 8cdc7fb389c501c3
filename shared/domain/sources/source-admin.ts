import { getSource, putNewSource } from '../../db/repositories/source-repository';
import { putNewFeedDocument } from '../../db/repositories/feed-document-repository';
import { createDraft } from '../../db/repositories/app-repository';
import { RuleError } from '../errors';
import { requireUser } from '../users/user-service';
import type { App, AppMetadata } from '../../records/app';
import { newSource, type Source } from '../../records/source';

const sourceNotFound = (sourceId: string) => new RuleError('source_not_found', `unknown source ${sourceId}`);

/** A new source owned by the user on the user's tenant; response encryption is on by default. */
export async function createSource(input: { userId: string; name?: string | undefined }, now: number): Promise<Source> {
  const user = await requireUser(input.userId);
  const source = newSource({ tenantId: user.tenantId, ownerId: user.userId, name: input.name ?? 'My source', now });
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
