/**
 * What App Store Connect's answers mean to a reseller managing their own account, as the refusals the API
 * answers with. Anything Apple did not clearly refuse (down, limited, an answer we cannot read) is
 * `apple_unavailable`: trying again later is the advice.
 */
import { AppleApiError } from '../../apple/asc-errors';
import type { AscCertificate } from '../../apple/asc-resources';
import { DomainError } from '../errors';

export function appleRefusal(error: unknown, context: { certificates?: AscCertificate[] } = {}): unknown {
  if (!(error instanceof AppleApiError)) return error;
  if (error.kind === 'unauthorized') return new DomainError('conflict', 'apple_key_invalid', { cause: error });
  if (error.status === 403) return new DomainError('conflict', 'apple_key_role', { cause: error });
  if (error.kind === 'certificate_limit') {
    const certificates = (context.certificates ?? []).map((c) => ({ id: c.id, name: c.name, serial_number: c.serialNumber, expires_at: Math.floor(Date.parse(c.expirationDate) / 1000) }));
    return new DomainError('conflict', 'apple_certificate_limit', { data: { certificates }, cause: error });
  }
  return new DomainError('unavailable', 'apple_unavailable', { cause: error });
}
