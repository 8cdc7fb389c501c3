import { createHash } from 'node:crypto';
import { createPublicHandler } from '../../shared/http/create-public-handler';
import { sourceFeedRoute } from '../../shared/routes/feed';
import { useMessages } from '../../shared/i18n/localize';
import { protectionMessages } from '../../shared/i18n/messages/protection';
import { suspensionMessages } from '../../shared/i18n/messages/suspension';
import { deviceProofMessages } from '../../shared/i18n/messages/device-proof';
import { accepts, hostName, queryValues, requestBaseUrl } from '../../shared/http/request-url';
import { feedCacheControl } from '../../shared/domain/sources/feed-caching';
import { readFeed } from '../../shared/domain/sources/feed-service';
import { suspensionPolicy } from '../../shared/domain/sources/suspended-feed';
import { encryptFeed } from '../../shared/domain/sources/feed-jwe';
import { reportMisuse, unlockWithCode } from '../../shared/domain/sources/protection-service';
import { parseRequest } from './schema';
import '../../shared/stores/protection';

const JOSE = 'application/jose';

/** A strong validator of the exact body: identical documents (links are stable within a window) match. */
const entityTag = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

// `?dk=` (a device-bound URL) proves the installing device, `?udid=` only claims one; links are bound to it
// either way, a device the owner disabled gets only links the gate refuses, a blocked one the blocked document. With `Accept: application/jose` an encrypting source answers a JWE.
useMessages(protectionMessages, suspensionMessages, deviceProofMessages);

export const handler = createPublicHandler(sourceFeedRoute, async (state) => {
  const request = parseRequest(state);
  const { sourceId } = request;
  const { event, tenant, lang } = state;
  const nowSeconds = Math.floor(state.now / 1000);
  if (request.operation === 'unlock') return unlockWithCode({ sourceId, tenantId: tenant.tenantId, udid: request.udid, deviceKey: request.deviceKey, code: request.code, nowSeconds });
  if (request.operation === 'report') {
    const { report, json, deviceKey } = request;
    return { data: await reportMisuse({ sourceId, tenantId: tenant.tenantId, report, json, deviceKey, hourlyCeiling: tenant.settings.reportsPerSourcePerHour, nowMs: state.now }) };
  }
  const baseUrl = requestBaseUrl(event, tenant);
  const answer = await readFeed({
    sourceId,
    tenantId: tenant.tenantId,
    baseUrl,
    host: hostName(baseUrl),
    query: request.device,
    nowSeconds,
    linkTtlSeconds: tenant.settings.linkTtlSeconds,
    lang,
    suspension: suspensionPolicy(tenant.settings),
    storefrontOwner: tenant.storefrontOwner,
  });
  const body = JSON.stringify(answer.document);
  const jose = answer.encrypted && accepts(event, JOSE);
  const personal = request.device.udid !== undefined || request.device.key !== undefined || queryValues(event, 'udid').length > 0 || queryValues(event, 'dk').length > 0;
  const cacheControl = feedCacheControl({ jose, encrypted: answer.encrypted, personal, maxAgeSeconds: tenant.settings.feedMaxAgeSeconds });
  if (jose) {
    return { raw: null, text: encryptFeed(body, answer.feedKey), headers: { 'Content-Type': JOSE, 'Cache-Control': cacheControl, Vary: 'Accept' } };
  }
  const etag = entityTag(body);
  const headers = { ETag: etag, 'Cache-Control': cacheControl, Vary: 'Accept' };
  if (matches(event.headers?.['if-none-match'], etag)) return { raw: null, statusCode: 304, text: '', headers };
  return { raw: answer.document, text: body, headers };
});
