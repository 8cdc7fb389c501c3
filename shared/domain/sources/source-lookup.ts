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

/**
 * The source, only on its own tenant's host: elsewhere it does not exist. On an agent's storefront domain
 * (`storefrontOwner`), only that agent's own sources exist: no other seller's page is served under its brand.
 */
export async function sourceOnTenant(sourceId: string, tenantId: string, storefrontOwner?: string): Promise<Source> {
  const source = await getSource(sourceId);
  if (!source || source.tenant_id !== tenantId || (storefrontOwner !== undefined && source.owner_id !== storefrontOwner)) throw sourceNotFound();
  return source;
}
