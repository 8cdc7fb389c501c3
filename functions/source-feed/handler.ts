import { createHash } from 'node:crypto';
import { createHandler } from '../../shared/http/create-handler';
import { accepts, hostName, queryValues, requestBaseUrl } from '../../shared/http/request-url';
import { readFeed } from '../../shared/domain/sources/feed-service';
import { encryptFeed } from '../../shared/domain/sources/feed-jwe';

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

// `?udid=` (and `kid=`) name the installing device: links are bound to it, and a device the owner disabled
// gets only links the gate refuses. With `Accept: application/jose` an encrypting source answers a JWE.
export const handler = createHandler('source-feed', async ({ pathParams, event, tenant, now }) => {
  const baseUrl = requestBaseUrl(event);
  const answer = await readFeed({
    sourceId: pathParams.source_id ?? '',
    tenantId: tenant.tenantId,
    baseUrl,
    host: hostName(baseUrl),
    query: { udid: queryValues(event, 'udid'), kid: queryValues(event, 'kid') },
    nowSeconds: Math.floor(now / 1000),
    linkTtlSeconds: tenant.settings.linkTtlSeconds,
  });
  const body = JSON.stringify(answer.document);
  const cacheControl = answer.encrypted ? 'no-store' : 'private, max-age=60';
  if (answer.encrypted && accepts(event, JOSE)) {
    return { raw: null, text: await encryptFeed(body, answer.feedKey), headers: { 'Content-Type': JOSE, 'Cache-Control': cacheControl, Vary: 'Accept' } };
  }
  const etag = entityTag(body);
  const headers = { ETag: etag, 'Cache-Control': cacheControl, Vary: 'Accept' };
  if (matches(event.headers?.['if-none-match'], etag)) return { raw: null, statusCode: 304, text: '', headers };
  return { raw: answer.document, text: body, headers };
});
