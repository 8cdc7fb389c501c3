import { DomainError } from '../../shared/domain/errors';
import type { RequestState } from '../../shared/http/request-state';

const DEVICE_ANSWER_TYPE = /^application\/pkcs7-signature\s*(;|$)/i;

/**
 * The device's DER answer as bytes. It must come as `application/pkcs7-signature` (what iOS sends), which
 * API Gateway (binary media type) and the local runtime hand over base64-encoded; anything else is refused.
 */
export function parseRequest({ event }: Pick<RequestState, 'event'>): Uint8Array {
  if (!DEVICE_ANSWER_TYPE.test(event.headers?.['content-type'] ?? '')) throw new DomainError('validation', 'device_content_type', { fields: ['body'] });
  if (typeof event.body !== 'string' || event.body === '' || !event.isBase64Encoded) throw new DomainError('validation', 'device_response_malformed', { fields: ['body'] });
  return new Uint8Array(Buffer.from(event.body, 'base64'));
}
