import type { ErrorKind } from '../domain/errors';
import type { EnvelopeKind } from '../routes/definitions';

export interface CodeAndStatus {
  code: number;
  status: number;
}

const managementCodes: Record<ErrorKind, CodeAndStatus> = {
  validation: { code: 40002, status: 400 },
  malformed_input: { code: 40002, status: 400 },
  too_large: { code: 40002, status: 413 },
  token_missing: { code: 10, status: 401 },
  token_invalid: { code: 10, status: 401 },
  token_expired: { code: 11, status: 401 },
  https_required: { code: 403, status: 403 },
  source_not_found: { code: 40001, status: 404 },
  app_not_found: { code: 40004, status: 404 },
  conflict: { code: 40003, status: 409 },
  device_selector_missing: { code: 40002, status: 400 },
  device_ambiguous: { code: 40002, status: 400 },
  invalid_action: { code: 40002, status: 400 },
  device_not_found: { code: 40001, status: 404 },
  add_failed: { code: 40003, status: 409 },
  // The download gate's refusals: a client shows `msg`, `data.error` says why.
  download_refused: { code: 403, status: 403 },
  unlock_refused: { code: 0, status: 200 },
  rate_limited: { code: 429, status: 429 },
  unavailable: { code: 500, status: 503 },
  news_not_found: { code: 40005, status: 404 },
  agent_not_found: { code: 40006, status: 404 },
};

// Legacy device clients read `code`, not the HTTP status, so business errors answer 200.
const deviceCodes: Record<ErrorKind, CodeAndStatus> = {
  ...managementCodes,
  token_missing: { code: 12, status: 200 },
  token_invalid: { code: 10, status: 200 },
  token_expired: { code: 10, status: 200 },
  device_selector_missing: { code: 20, status: 200 },
  device_ambiguous: { code: 21, status: 200 },
  invalid_action: { code: 22, status: 200 },
  device_not_found: { code: 100, status: 200 },
  // Device info's `source_id` naming no source of the caller's.
  source_not_found: { code: 40001, status: 200 },
  // The device list's and the ledger's `agent` naming no agent of the caller's.
  agent_not_found: { code: 40006, status: 200 },
};

/** The add routes' contract reserves code 0 for every failure; `data.error` says which. */
function addCode(kind: ErrorKind): CodeAndStatus {
  if (kind === 'rate_limited') return { code: 0, status: 429 };
  if (kind === 'https_required') return { code: 0, status: 403 };
  if (kind === 'unavailable') return { code: 0, status: 503 };
  if (kind === 'malformed_input') return { code: 0, status: 400 };
  if (kind === 'too_large') return { code: 0, status: 413 };
  return { code: 0, status: 200 };
}

/**
 * Signer apps read `code` when they redeem an unlock code: every refusal is code 0, answered HTTP 200 unless
 * the request itself could not be taken (limited, malformed, too large, plain HTTP, an outage). An unknown
 * source stays the feed's 404.
 */
function unlockCode(kind: ErrorKind): CodeAndStatus {
  if (kind === 'source_not_found') return managementCodes.source_not_found;
  const status = managementCodes[kind].status;
  return { code: 0, status: [400, 403, 413, 429, 503].includes(status) ? status : 200 };
}

export function codeFor(envelope: EnvelopeKind, kind: ErrorKind): CodeAndStatus {
  switch (envelope) {
    case 'management':
    case 'feed':
    case 'page':
      return managementCodes[kind];
    case 'device':
      return deviceCodes[kind];
    case 'add':
      return addCode(kind);
    case 'unlock':
      return unlockCode(kind);
  }
}

/** Every error kind, in the order the management table lists them. */
export const allErrorKinds = Object.keys(managementCodes) as ErrorKind[];

export const INTERNAL_ERROR: CodeAndStatus = { code: 500, status: 500 };
