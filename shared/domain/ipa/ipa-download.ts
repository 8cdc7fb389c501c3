/**
 * Downloads an IPA under the fetch rules for user-given URLs, as a stream: each chunk goes into the SHA-256,
 * the byte count and a temporary file (the zip reader needs random access, which a stream cannot give), never
 * into memory whole. The size cap is enforced from `Content-Length` before reading and again while reading
 * (an origin may send more than it announced, or announce nothing).
 */
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FetchRefusedError, safeFetch, type SafeFetchOptions } from '../../fetch/safe-fetch';
import { InspectionDeferred, InspectionError, validatorsOf, type FileValidators } from '../../records/ipa-inspection';

export { validatorsOf };

export type FetchOverrides = Pick<SafeFetchOptions, 'resolve' | 'allowPrivate' | 'connectAddress'>;

export interface DownloadOptions {
  maxBytes: number;
  /** The whole download must end within this; past it the download is `timeout` (or deferred, see `onTimeout`). */
  timeoutMs: number;
  /** A request defers to the background job; the job itself refuses a slow origin. */
  onTimeout: 'defer' | 'fail';
  fetch?: FetchOverrides;
}

export interface Downloaded {
  path: string;
  size: number;
  sha256: string;
  validators: FileValidators;
  /** Removes the temporary file (and its folder). */
  discard(): Promise<void>;
}

const USER_AGENT = { 'User-Agent': 'appsource-ipa-inspector/1' };

/** A fetch failure as an inspection failure: no answer at all is `unreachable`, running out of time `timeout`. */
export function fetchFailure(error: unknown, onTimeout: 'defer' | 'fail'): Error {
  if (error instanceof InspectionError || error instanceof InspectionDeferred) return error;
  if (error instanceof FetchRefusedError) {
    if (error.reason === 'timeout') return onTimeout === 'defer' ? new InspectionDeferred('download did not finish in time') : new InspectionError('timeout', 'the origin was too slow');
    return new InspectionError('unreachable', `the download URL could not be fetched (${error.reason})`);
  }
  return new InspectionError('unreachable', (error as Error).message);
}

/** `HEAD` of the download URL: its status and validators, within `timeoutMs`. */
export async function headFile(url: string, timeoutMs: number, fetch: FetchOverrides = {}): Promise<{ status: number; validators: FileValidators }> {
  const res = await safeFetch(url, { ...fetch, method: 'HEAD', timeoutMs, headers: USER_AGENT });
  return { status: res.status, validators: validatorsOf(res.headers) };
}

export async function downloadIpa(url: string, options: DownloadOptions): Promise<Downloaded> {
  const dir = await mkdtemp(join(tmpdir(), 'ipa-'));
  const path = join(dir, 'app.ipa');
  const discard = () => rm(dir, { recursive: true, force: true });
  const hash = createHash('sha256');
  let size = 0;
  let validators: FileValidators = { length: undefined, etag: undefined, lastModified: undefined };
  try {
    const res = await safeFetch(url, {
      ...options.fetch,
      method: 'GET',
      headers: USER_AGENT,
      timeoutMs: options.timeoutMs,
      bodySink: async (body, status, headers) => {
        if (status < 200 || status > 299) {
          body.destroy();
          throw new InspectionError('unreachable', `the origin answered HTTP ${status}`, status);
        }
        validators = validatorsOf(headers);
        if (validators.length !== undefined && validators.length > options.maxBytes) {
          body.destroy();
          throw new InspectionError('too_large', `the file is ${validators.length} bytes, over the cap of ${options.maxBytes}`);
        }
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            if (size > options.maxBytes) return callback(new InspectionError('too_large', `the file is over the cap of ${options.maxBytes} bytes`));
            hash.update(chunk);
            callback(null, chunk);
          },
        });
        await pipeline(body, counter, createWriteStream(path));
        // A connection that closes early is a truncated download, not a short file.
        if (validators.length !== undefined && size !== validators.length) throw new InspectionError('invalid', `the download ended after ${size} of ${validators.length} bytes`);
      },
    });
    void res;
    return { path, size, sha256: hash.digest('hex'), validators: { ...validators, length: validators.length ?? size }, discard };
  } catch (error) {
    await discard();
    const failure = fetchFailure(error, options.onTimeout);
    // A file that failed keeps its validators: an unchanged file is not retried in vain.
    if (failure instanceof InspectionError && (validators.length ?? validators.etag ?? validators.lastModified) !== undefined) failure.validators ??= validators;
    throw failure;
  }
}
