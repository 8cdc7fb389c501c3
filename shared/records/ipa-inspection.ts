/**
 * What the service learns by reading an app's IPA, stored on the app (`ipa`) so that publishing, the feed and
 * link health all judge the same file. The inspection is tied to the URL it read and to the validators the
 * origin gave for that file; a file whose validators still match is not downloaded again.
 */

/** What identifies one version of the file at a URL, as far as the origin tells: a changed file changes one of these. */
import { ServiceError } from '../service-error';
export interface FileValidators {
  /** Bytes, from `Content-Length` (or the download itself). */
  length: number | undefined;
  etag: string | undefined;
  lastModified: string | undefined;
}

/** What was read from the IPA. */
export interface IpaFacts {
  sha256: string;
  /** Exact size in bytes of the downloaded file. */
  size: number;
  bundleIdentifier: string;
  /** `CFBundleShortVersionString`. */
  version: string;
  /** `CFBundleVersion`. */
  buildVersion: string;
  /** `MinimumOSVersion`; '' when the IPA names none. */
  minOSVersion: string;
  /** `CFBundleDisplayName`, else `CFBundleName`; '' when neither is there. */
  displayName: string;
  /** Every `NS…UsageDescription` key of Info.plist with its text. */
  privacy: Record<string, string>;
  /** Entitlement keys of the main executable's code signature, all architectures, sorted. */
  entitlements: string[];
}

/**
 * Why an inspection found no IPA it could use:
 * - `invalid`: not a zip, truncated, no `Payload/*.app/Info.plist`, an unreadable plist or executable, or a
 *   zip bomb (an entry larger than it may be, or larger than it says);
 * - `too_large`: the file is over the tenant's size cap;
 * - `unreachable`: the origin answered an error status, or could not be reached (refused, DNS, TLS, redirects);
 * - `timeout`: the download did not finish within the background job's budget (a slow origin).
 */
export type InspectionFailure = 'invalid' | 'too_large' | 'unreachable' | 'timeout';

export type IpaInspection =
  | { state: 'ok'; url: string; validators: FileValidators; inspectedAt: number; facts: IpaFacts }
  | { state: 'failed'; url: string; validators: FileValidators; inspectedAt: number; failure: InspectionFailure; status?: number; detail?: string }
  /** Too large or too slow to read within a request: the background job reads it. */
  | { state: 'pending'; url: string; validators: FileValidators; requestedAt: number };

/** An inspection refused for a reason the owner can act on. */
export class InspectionError extends ServiceError<'ipa_inspection', InspectionFailure> {
  override readonly name = 'InspectionError';
  /** What the origin said of the file before the inspection failed, when it answered at all. */
  validators: FileValidators | undefined;

  constructor(
    readonly failure: InspectionFailure,
    readonly detail: string,
    readonly status?: number,
  ) {
    super('ipa_inspection', failure, `${failure}: ${detail}`);
  }
}

/** The request ran out of its time budget (or the file is too large to read in one): hand it to the background job. */
export class InspectionDeferred extends ServiceError<'ipa_inspection', 'deferred'> {
  override readonly name = 'InspectionDeferred';

  constructor(message = 'inspection deferred to the background job') {
    super('ipa_inspection', 'deferred', message);
  }
}

/** True when the validators show the same file: every validator the origin gives now matches the stored one. */
export function sameFile(stored: FileValidators, now: FileValidators): boolean {
  if (now.etag === undefined && now.lastModified === undefined && now.length === undefined) return false;
  if (now.length !== undefined && stored.length !== now.length) return false;
  if (now.etag !== undefined && stored.etag !== now.etag) return false;
  if (now.lastModified !== undefined && stored.lastModified !== now.lastModified) return false;
  // A length alone is too weak to call a file unchanged (a rebuilt IPA often keeps its size roughly, not exactly, but can).
  return now.etag !== undefined || now.lastModified !== undefined;
}

/** The validators of a response's headers. */
export function validatorsOf(headers: Headers, fallbackLength?: number): FileValidators {
  const length = headers.get('content-length')?.trim() ?? '';
  return {
    length: /^\d{1,15}$/.test(length) ? Number(length) : fallbackLength,
    etag: headers.get('etag')?.trim() || undefined,
    lastModified: headers.get('last-modified')?.trim() || undefined,
  };
}
