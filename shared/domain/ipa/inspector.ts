/**
 * One inspection of the IPA at a URL: download (streamed, hashed, capped), then the archive read. In a request
 * the time budget is short and a file too large for it is left to the background job (`InspectionDeferred`);
 * the job has a Lambda's whole run and refuses only a truly slow origin.
 */
import { readIpaArchive } from './ipa-archive';
import { downloadIpa, fetchFailure, headFile, type FetchOverrides } from './ipa-download';
import { InspectionDeferred, InspectionError, sameFile, type FileValidators, type IpaInspection } from '../../records/ipa-inspection';

export const INSPECTION_LIMITS = {
  /** What a request may spend downloading and reading (its Lambda has 10 s in all). */
  requestBudgetMs: 6_000,
  /** A file announced larger than this is not tried in a request: it would not fit the budget. */
  requestMaxBytes: 64 * 1024 * 1024,
  /** The `HEAD` that decides whether a stored inspection still describes the file. */
  headBudgetMs: 3_000,
  /** The background job: what one file may take (the job's Lambda runs under 5 minutes; the run's budget bounds it too). */
  jobBudgetMs: 4 * 60_000,
  /** The executable may inflate to at most this many times the file, and never past 4 GiB. */
  executableRatio: 8,
  executableMaxBytes: 4 * 1024 * 1024 * 1024,
} as const;

export interface InspectOptions {
  maxBytes: number;
  timeoutMs: number;
  onTimeout: 'defer' | 'fail';
  now: number;
  fetch?: FetchOverrides;
}

const noValidators: FileValidators = { length: undefined, etag: undefined, lastModified: undefined };

/** Downloads and reads the IPA: `ok` with its facts, or `failed` with the reason. Throws `InspectionDeferred` only with `onTimeout: 'defer'`. */
export async function inspectIpa(url: string, options: InspectOptions): Promise<IpaInspection> {
  let validators = noValidators;
  try {
    const file = await downloadIpa(url, { maxBytes: options.maxBytes, timeoutMs: options.timeoutMs, onTimeout: options.onTimeout, ...(options.fetch ? { fetch: options.fetch } : {}) });
    validators = file.validators;
    try {
      const maxExecutable = Math.min(INSPECTION_LIMITS.executableMaxBytes, file.size * INSPECTION_LIMITS.executableRatio);
      const facts = await readIpaArchive(file.path, maxExecutable);
      return { state: 'ok', url, validators, inspectedAt: options.now, facts: { ...facts, sha256: file.sha256, size: file.size } };
    } finally {
      await file.discard();
    }
  } catch (error) {
    if (error instanceof InspectionDeferred) throw error;
    const refused = error instanceof InspectionError ? error : (fetchFailure(error, 'fail') as InspectionError);
    return {
      state: 'failed',
      url,
      validators: refused.validators ?? validators,
      inspectedAt: options.now,
      failure: refused.failure,
      detail: refused.detail.slice(0, 300),
      ...(refused.status !== undefined ? { status: refused.status } : {}),
    };
  }
}

export type RequestInspection = { inspection: IpaInspection; fresh: boolean };

/**
 * The inspection a request can rely on for the file now at `url`: the stored one when a `HEAD` shows the same
 * file (the cheap path: one request to the origin), else a new one read within the request's budget, or
 * `pending` when the file is too large or slow for it.
 */
export async function inspectInRequest(url: string, stored: IpaInspection | undefined, options: { maxBytes: number; now: number; fetch?: FetchOverrides; requestBudgetMs?: number }): Promise<RequestInspection> {
  let head: { status: number; validators: FileValidators } | undefined;
  try {
    head = await headFile(url, INSPECTION_LIMITS.headBudgetMs, options.fetch);
  } catch (error) {
    const refused = fetchFailure(error, 'fail');
    if (refused instanceof InspectionError && refused.failure === 'unreachable') {
      return { inspection: { state: 'failed', url, validators: noValidators, inspectedAt: options.now, failure: 'unreachable', detail: refused.detail }, fresh: true };
    }
    // A HEAD that timed out says nothing of the file: the download decides.
  }
  const headOk = head !== undefined && head.status >= 200 && head.status <= 299;
  if (stored && stored.url === url && headOk && sameFile(stored.validators, head!.validators)) {
    // An origin that answered an error is worth another try. One the background job found too slow is not
    // retried within a request (it would only be deferred to the job again); a new file or URL is read anew.
    const retry = stored.state === 'failed' && stored.failure === 'unreachable';
    if (!retry) return { inspection: stored, fresh: false };
  }
  const validators = headOk ? head!.validators : noValidators;
  const pending = (): RequestInspection => ({ inspection: { state: 'pending', url, validators, requestedAt: options.now }, fresh: true });
  if (validators.length !== undefined && validators.length > options.maxBytes) {
    return { inspection: { state: 'failed', url, validators, inspectedAt: options.now, failure: 'too_large', detail: `the file is ${validators.length} bytes, over the cap of ${options.maxBytes}` }, fresh: true };
  }
  if (validators.length !== undefined && validators.length > INSPECTION_LIMITS.requestMaxBytes) return pending();
  try {
    const inspection = await inspectIpa(url, { maxBytes: options.maxBytes, timeoutMs: options.requestBudgetMs ?? INSPECTION_LIMITS.requestBudgetMs, onTimeout: 'defer', now: options.now, ...(options.fetch ? { fetch: options.fetch } : {}) });
    return { inspection, fresh: true };
  } catch (error) {
    if (error instanceof InspectionDeferred) return pending();
    throw error;
  }
}
