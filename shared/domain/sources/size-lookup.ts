import { safeFetch } from '../../fetch/safe-fetch';
import { logger } from '../../logger';

/** The whole lookup, redirects included, must fit in this: publishing waits for it. */
export const SIZE_LOOKUP_BUDGET_MS = 3_000;

/**
 * The size in bytes of the build at `url`, from the `Content-Length` of a `HEAD` request under the fetch
 * rules for user-supplied URLs. Undefined when the URL is refused, fails, times out, answers anything but
 * 2xx or names no length: the owner must then give the size.
 */
export async function lookUpDownloadSize(url: string): Promise<number | undefined> {
  try {
    const res = await safeFetch(url, { method: 'HEAD', timeoutMs: SIZE_LOOKUP_BUDGET_MS, maxRedirects: 3 });
    if (res.status < 200 || res.status > 299) return undefined;
    const length = res.headers.get('content-length')?.trim() ?? '';
    if (!/^\d{1,15}$/.test(length)) return undefined;
    return Number(length);
  } catch (error) {
    logger.info('Size lookup failed', { error: error as Error });
    return undefined;
  }
}
