import { buildProfile, type ProfileAnswer, type ProfileRequest } from '../domain/udid-capture/capture-service';
import type { RawResult, RequestState } from '../http/request-state';
import { requestBaseUrl } from '../http/request-url';
import { localize } from '../i18n/localize';
import { agentBrand } from '../domain/agents/storefront-brand';

/**
 * The Profile Service profile for the request's tenant, returning to `target` (a source's install page, or a
 * storefront's return URL for one of the tenant's resellers), as the answer.
 */
export async function answerWithProfile(state: RequestState, target: Pick<ProfileRequest, 'source' | 'userId' | 'returnUrl'>): Promise<RawResult> {
  // An agent's storefront (its source, its `user`, or its domain) names the agent, never the site above it.
  const sellerId = target.source?.owner_id ?? target.userId ?? state.tenant.storefrontOwner;
  const brand = sellerId ? await agentBrand(sellerId, state.tenant.tenantId) : undefined;
  const userId = target.source ? undefined : (target.userId ?? state.tenant.storefrontOwner);
  const profile = await buildProfile({
    ...target,
    ...(userId ? { userId } : {}),
    tenant: state.tenant,
    baseUrl: requestBaseUrl(state.event, state.tenant),
    description: localize(state.lang, 'udid_profile_description', { name: brand?.name ?? state.tenant.name }),
    now: Math.floor(state.now / 1000),
    ...(brand ? { brand: { agentId: brand.agentId, name: brand.name } } : {}),
  });
  return profileResult(profile);
}

/** A profile as the answer: binary when signed (API Gateway decodes the base64), XML text otherwise. */
function profileResult(profile: ProfileAnswer): RawResult {
  return {
    raw: null,
    text: profile.signed ? profile.body.toString('base64') : profile.body.toString('utf8'),
    ...(profile.signed ? { base64: true } : {}),
    headers: {
      'Content-Type': profile.contentType,
      'Content-Disposition': 'attachment; filename="udid.mobileconfig"',
      'Cache-Control': 'no-store',
      'X-Profile-Signed': profile.signed ? '1' : '0',
    },
  };
}
