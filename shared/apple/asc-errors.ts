import * as z from 'zod/mini';
import { ServiceError } from '../service-error';

/** What went wrong, in the terms the add-device flow branches on. */
export type AppleErrorKind =
  | 'device_exists'
  | 'device_class_full'
  | 'invalid_udid'
  | 'devices_processing'
  | 'rate_limited'
  | 'not_found'
  | 'unauthorized'
  | 'certificate_limit'
  | 'unavailable'
  | 'unexpected';

const errorEntrySchema = z.object({
  id: z.optional(z.string()),
  status: z.string(),
  code: z.string(),
  title: z.string(),
  detail: z.string(),
  source: z.optional(z.object({ pointer: z.optional(z.string()), parameter: z.optional(z.string()) })),
});
const errorBodySchema = z.object({ errors: z.array(errorEntrySchema) });

/** One entry of Apple's `{"errors":[…]}` body. */
export type AppleErrorEntry = z.infer<typeof errorEntrySchema>;

export interface AppleApiErrorDetails {
  /** HTTP status; absent when no response arrived (network error, timeout). */
  status?: number;
  errors?: AppleErrorEntry[];
  cause?: unknown;
}

/** Apple's answer, as a kind the add flow branches on (also its `reason`); Apple's own code stays in `code`. */
export class AppleApiError extends ServiceError<AppleErrorKind> {
  override readonly name: string = 'AppleApiError';
  readonly status: number | undefined;
  readonly errors: AppleErrorEntry[];

  constructor(kind: AppleErrorKind, message: string, details: AppleApiErrorDetails = {}) {
    super(kind, kind, message, details);
    this.status = details.status;
    this.errors = details.errors ?? [];
  }

  /** Apple's code of the first error entry (Apple sends one in practice). */
  get code(): string | undefined {
    return this.errors[0]?.code;
  }

  get detail(): string | undefined {
    return this.errors[0]?.detail;
  }
}

/** The team has used its 100 devices of one class (Apple counts iPhone, iPad, Mac … separately). */
export class DeviceClassFullError extends AppleApiError {
  override readonly name = 'DeviceClassFullError';
  override readonly kind = 'device_class_full' as const;

  constructor(
    /** Apple's device word, lower-cased: `iphone`, `ipad`, `mac` … (the product's device types). */
    readonly deviceClass: string,
    details: AppleApiErrorDetails,
  ) {
    super('device_class_full', `The team has no ${deviceClass} device slots left`, details);
  }
}

/**
 * A certificate Apple no longer knows: revoked (or never on this team). Shaped like DeviceClassFullError on
 * purpose: each is its own type, which the callers that care catch with `instanceof`.
 */
export class CertificateNotFoundError extends AppleApiError {
  override readonly name = 'CertificateNotFoundError';
  override readonly kind = 'not_found' as const;

  constructor(
    readonly certificateId: string,
    details: AppleApiErrorDetails,
  ) {
    super('not_found', `Certificate ${certificateId} does not exist (revoked?)`, details);
  }
}

const DEVICE_CLASS_FULL = /maximum number of registered (.+?) devices/i;
// Apple gives duplicates and still-processing devices no code finer than ENTITY_ERROR: only the text tells.
const DEVICE_EXISTS = /already exists on this team/i;
const NO_CURRENT_DEVICES = /There are no current \S+ devices/i;
// The team's cap of distribution certificates: Apple says it only in words.
const CERTIFICATE_LIMIT = /already have a current .*certificate|maximum number of .*certificates/i;

function isAboutUdid(entry: AppleErrorEntry): boolean {
  return entry.source?.pointer === '/data/attributes/udid' || /'udid'/.test(entry.detail);
}

function classify(entry: AppleErrorEntry, details: AppleApiErrorDetails): AppleApiError | undefined {
  const { code, detail } = entry;
  if (code.startsWith('ENTITY_ERROR')) {
    if (DEVICE_EXISTS.test(detail)) return new AppleApiError('device_exists', detail, details);
    if (NO_CURRENT_DEVICES.test(detail)) return new AppleApiError('devices_processing', detail, details);
    if (CERTIFICATE_LIMIT.test(detail)) return new AppleApiError('certificate_limit', detail, details);
    if (code === 'ENTITY_ERROR.ATTRIBUTE.INVALID' && isAboutUdid(entry)) {
      return new AppleApiError('invalid_udid', detail, details);
    }
  }
  if (code === 'FORBIDDEN_ERROR') {
    const word = DEVICE_CLASS_FULL.exec(detail)?.[1];
    if (word) return new DeviceClassFullError(word.toLowerCase(), details);
  }
  if (code === 'NOT_AUTHORIZED') return new AppleApiError('unauthorized', detail, details);
  if (code === 'RATE_LIMIT_EXCEEDED') return new AppleApiError('rate_limited', detail, details);
  if (code === 'NOT_FOUND') return new AppleApiError('not_found', detail, details);
  return undefined;
}

/** Maps a non-2xx response to its typed error: Apple's `code` first, the HTTP status where the body says nothing. */
export function appleErrorFromResponse(status: number, body: unknown): AppleApiError {
  const parsed = errorBodySchema.safeParse(body);
  const errors = parsed.success ? parsed.data.errors : [];
  const details: AppleApiErrorDetails = { status, errors };
  for (const entry of errors) {
    const error = classify(entry, details);
    if (error) return error;
  }
  const summary = errors[0]?.detail ?? `HTTP ${status}`;
  if (status === 401) return new AppleApiError('unauthorized', summary, details);
  if (status === 429) return new AppleApiError('rate_limited', summary, details);
  if (status === 404) return new AppleApiError('not_found', summary, details);
  if (status >= 500) return new AppleApiError('unavailable', summary, details);
  return new AppleApiError('unexpected', summary, details);
}
