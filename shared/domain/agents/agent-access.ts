/**
 * Who an agent request is about: the caller as a user on its own tenant, and the caller's own agents (one level
 * down). Any other id — the caller's parent, a sibling, an agent of an agent, another tenant's, an unknown one —
 * answers `agent_not_found`, the same for all, so an id teaches nothing.
 */
import { getUser } from '../../db/repositories/user-repository';
import type { Tenant } from '../../records/tenant';
import { parentOf, type TokenOwner, type User } from '../../records/user';
import { DomainError } from '../errors';

export const notFound = () => new DomainError('agent_not_found', 'agent_not_found');

/** The caller as a user, on its own tenant; a token of another tenant's site owns nothing here. */
export async function caller(owner: TokenOwner, tenant: Tenant): Promise<User> {
  if (owner.tenantId !== tenant.tenantId) throw new DomainError('token_invalid', 'token_invalid');
  const user = await getUser(owner.userId);
  if (!user) throw new DomainError('token_invalid', 'token_invalid');
  return user;
}

/** The caller's own agent `agentId` (one level down, same tenant), or not found — whoever else it may be. */
export async function agentOf(parent: User, agentId: string): Promise<User> {
  const agent = await getUser(agentId);
  if (!agent || agent.tenantId !== parent.tenantId || parentOf(agent) !== parent.userId) throw notFound();
  return agent;
}

/**
 * The user whose devices or ledger a read is about: the caller, or with `agentId` the caller's own agent (one
 * level down) — the device list and the ledger filter by agent this way.
 */
export async function readSubject(owner: TokenOwner, tenant: Tenant, agentId: string | undefined): Promise<TokenOwner> {
  if (agentId === undefined) return owner;
  const agent = await agentOf(await caller(owner, tenant), agentId);
  return { userId: agent.userId, tenantId: agent.tenantId, tokenExpiresAt: undefined };
}
