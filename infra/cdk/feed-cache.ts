/**
 * The one cache in front of the API: API Gateway's stage cache, on the feed's GET method only. It holds what
 * the feed function answered, per key, for `-c feedCacheSeconds` (default 60; 0 creates no cache).
 *
 * API Gateway's cache does not read `Cache-Control`: it stores every answer of a cached method under the key
 * the method declares. So the key carries every part of a request that changes the answer: the source (path),
 * the tenant and the links' host (`Host`), the form (`Accept`: a JWE is never served to a plain reader nor the
 * reverse), a revalidation (`If-None-Match`, so a 304 is never served to a reader without the tag), and the
 * device (`udid`, `kid`) and unlock (`code`) parameters. A read without them — the document every client
 * without a UDID gets, which the function marks `public` — is the one shared entry; a device's read is kept
 * only under its own UDID and served to nobody else.
 */
import { sourceFeedRoute, type HttpMethod, type RouteDefinition } from '../../shared/routes';

export interface CachedMethod {
  route: RouteDefinition;
  method: HttpMethod;
  /** Method request parameters that make up the cache key (besides the path's). */
  keyParameters: readonly string[];
}

export const FEED_CACHE: CachedMethod = {
  route: sourceFeedRoute,
  method: 'GET',
  keyParameters: [
    'method.request.header.Host',
    'method.request.header.Accept',
    'method.request.header.If-None-Match',
    'method.request.querystring.udid',
    // A device-bound URL's key: each device's read is cached under its own key, never shared.
    'method.request.querystring.dk',
    'method.request.querystring.kid',
    'method.request.querystring.code',
  ],
};

/** The smallest cache API Gateway offers (0.5 GB): billed per hour while the stack exists. */
export const FEED_CACHE_SIZE_GB = '0.5';
