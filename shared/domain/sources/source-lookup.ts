import { getSource } from '../../db/repositories/source-repository';
import { DomainError } from '../errors';
import { isOwnedBy, type Actor, type Source } from '../../records/source';

const sourceNotFound = () => new DomainError('source_not_found', 'source_not_found');

/** The actor's source on the actor's tenant. Missing and not-yours answer the same, so nobody can probe others' sources. */
export async function ownedSource(actor: Actor, sourceId: string): Promise<Source> {
  const source = await getSource(sourceId);
  if (!source || !isOwnedBy(source, actor)) throw sourceNotFound();
  return source;
}

/** The source, only on its own tenant's host: elsewhere it does not exist. */
export async function sourceOnTenant(sourceId: string, tenantId: string): Promise<Source> {
  const source = await getSource(sourceId);
  if (!source || source.tenant_id !== tenantId) throw sourceNotFound();
  return source;
}
