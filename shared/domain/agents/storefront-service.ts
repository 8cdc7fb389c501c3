/**
 * Agents' storefronts through the agents route: read and changed by the agent itself or by its parent (one
 * level up), never by a sibling, a grandparent or anyone else (they get `agent_not_found`, as for any id not
 * their own agent's). A reseller of the operator has no storefront: its pages carry the site's brand.
 * A suspended agent cannot change its own storefront (its parent still can); its pages keep its brand and
 * say it takes no new orders (storefront-brand.ts).
 */
import { randomBytes } from 'node:crypto';
import { getTenantByHost } from '../../db/repositories/tenant-repository';
import { activateStorefrontDomain, getStorefrontOwner, putStorefront, type StorefrontOwner } from '../../db/repositories/storefront-repository';
import { domainProofName, storefrontItem, type Storefront, type StorefrontChange } from '../../records/storefront';
import type { Tenant } from '../../records/tenant';
import { levelOf, type TokenOwner, type User } from '../../records/user';
import { DomainError } from '../errors';
import { agentOf, caller, notFound } from './agent-access';
import { domainProven } from './domain-proof';
import { requireActive } from './agent-service';
import { forgetBrand } from './storefront-brand';

/** The storefront as its agent and its parent see it, with where it is served. */
export function storefrontView({ user, storefront: s }: StorefrontOwner, baseUrl: string) {
  // Every stored field but the domain's proof value, which is shown only inside domain_proof while pending.
  const { domain_token: _proof, ...fields } = storefrontItem(s);
  return {
    agent_id: user.userId,
    ...fields,
    // What to publish in DNS to prove the domain, until it is proven.
    ...(s.domainState === 'pending' ? { domain_proof: { type: 'TXT', name: domainProofName(s.domain), value: s.domainToken } } : {}),
    pages: {
      customer_page: `${baseUrl}/api/customer?store=${user.userId}`,
      ...(s.domainState === 'active' ? { domain_page: `https://${s.domain}/api/customer` } : {}),
    },
  };
}

/** Whose storefront a request is about: the caller's own agent (`agentId`), or the caller itself when an agent. */
async function subjectOf(owner: TokenOwner, tenant: Tenant, agentId: string | undefined, writing: boolean): Promise<User> {
  const me = await caller(owner, tenant);
  if (agentId !== undefined) return agentOf(me, agentId);
  if (levelOf(me) === 0) throw new DomainError('conflict', 'storefront_not_agent');
  if (writing) requireActive(me);
  return me;
}

async function load(userId: string): Promise<StorefrontOwner> {
  const found = await getStorefrontOwner(userId);
  if (!found) throw notFound();
  return found;
}

export async function readStorefront(owner: TokenOwner, tenant: Tenant, agentId: string | undefined, baseUrl: string) {
  const subject = await subjectOf(owner, tenant, agentId, false);
  return storefrontView(await load(subject.userId), baseUrl);
}

function applied(previous: Storefront, change: StorefrontChange): Storefront {
  const { verifyDomain: _verify, ...fields } = change;
  const next: Storefront = { ...previous, ...fields };
  if (fields.domain !== undefined && fields.domain !== previous.domain) {
    next.domainState = fields.domain ? 'pending' : 'none';
    next.domainToken = fields.domain ? `appsource-verify=${randomBytes(18).toString('base64url')}` : '';
  }
  return next;
}

/** A host already serving a tenant or another storefront is not for the taking. */
async function checkClaim(domain: string, agentId: string): Promise<void> {
  const holder = await getTenantByHost(domain);
  if (holder && holder.storefrontOwner !== agentId) throw new DomainError('conflict', 'storefront_domain_taken', { data: { domain } });
}

export async function changeStorefront(owner: TokenOwner, tenant: Tenant, agentId: string | undefined, change: StorefrontChange, baseUrl: string, now: number) {
  const subject = await subjectOf(owner, tenant, agentId, true);
  let current = await load(subject.userId);
  const wantsDomain = change.domain !== undefined && change.domain !== current.storefront.domain ? change.domain : undefined;
  if (wantsDomain) await checkClaim(wantsDomain, subject.userId);
  // Conditioned on what was read: a concurrent writer's change is read again and this one applied over it.
  for (let attempt = 0; ; attempt++) {
    const next = applied(current.storefront, change);
    if (await putStorefront(subject.userId, current.storefront, next)) {
      current = { ...current, storefront: next };
      break;
    }
    if (attempt === 2) throw new DomainError('conflict', 'storefront_domain_taken');
    current = await load(subject.userId);
  }
  forgetBrand(subject.userId);
  if (!change.verifyDomain) return { data: storefrontView(current, baseUrl), message: 'storefront_saved' as const };
  return verify(current, baseUrl, now);
}

async function verify(current: StorefrontOwner, baseUrl: string, now: number) {
  const s = current.storefront;
  if (!s.domain) throw new DomainError('conflict', 'storefront_no_domain');
  if (s.domainState === 'pending') {
    if (!(await domainProven(s.domain, s.domainToken))) {
      throw new DomainError('conflict', 'storefront_domain_unverified', { params: { name: domainProofName(s.domain), value: s.domainToken }, data: { domain_proof: { type: 'TXT', name: domainProofName(s.domain), value: s.domainToken } } });
    }
    await activate(current, now);
  }
  const view = storefrontView({ ...current, storefront: { ...s, domainState: 'active' } }, baseUrl);
  return { data: view, message: 'storefront_domain_verified' as const, params: { domain: s.domain } };
}

/** Maps the claimed, proven (or operator-approved) domain to the agent. */
export async function activate(current: StorefrontOwner, now: number): Promise<void> {
  const outcome = await activateStorefrontDomain(current.user, current.storefront.domain, now);
  if (outcome !== 'ok') throw new DomainError('conflict', 'storefront_domain_taken', { data: { domain: current.storefront.domain } });
  forgetBrand(current.user.userId);
}
