/**
 * Device status and info name their certificate by `kid`: it is read in the same BatchGetItem as the token
 * (`readWithToken` of `createHandler`), which saves each request a round trip. Ownership is checked by the
 * device service afterwards, exactly as for a certificate read on its own; a request that names it by UDID
 * alone reads it the usual way.
 */
import { deviceRecordRead } from '../db/repositories/device-repository';
import type { DeviceRecord } from '../domain/devices/device';
import { parseOptionalSelector } from '../validation/device-selector';
import type { RequestState } from './request-state';

/** The certificate's read when the request names a valid `kid`; nothing otherwise (its parse refuses it later). */
export function deviceReadWithToken(state: RequestState) {
  let kid: string | undefined;
  try {
    kid = parseOptionalSelector(state.params)?.kid;
  } catch {
    return undefined;
  }
  return kid === undefined ? undefined : { device: deviceRecordRead(kid) };
}

/** The certificate read with the token: undefined when none was, null when it was and is absent. */
export function deviceReadWith(state: Pick<RequestState, 'readWithToken'>): DeviceRecord | null | undefined {
  const read = state.readWithToken;
  if (!read || !('device' in read)) return undefined;
  return read.device as DeviceRecord | null;
}
