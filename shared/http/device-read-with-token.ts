/**
 * Device status and info name their certificate by `kid`: it is read in the same BatchGetItem as the token
 * (`readWithToken` of `createHandler`), which saves each request a round trip. Ownership is checked by the
 * device service afterwards, exactly as for a certificate read on its own; a request that names it by UDID
 * alone reads it the usual way.
 */
import { deviceRecordRead } from '../db/repositories/device-repository';
import { authenticateWith } from '../domain/users/authentication';
import { authenticateSessionWith } from '../domain/console/session-auth';
import type { ReadWithToken } from './middlewares/token-auth';
import type { DeviceRecord } from '../records/device';
import { parseOptionalSelector } from '../validation/device-selector';
import type { RequestState } from './request-state';

/** The `kid` the request names, when it is a valid one. */
function namedKid(params: RequestState['params']): string | undefined {
  try {
    return parseOptionalSelector(params)?.kid;
  } catch {
    return undefined;
  }
}

/** The certificate's read when the request names a valid `kid`; nothing otherwise (its parse refuses it later). */
export const deviceReadWithToken: ReadWithToken = {
  reads: (state) => {
    const kid = namedKid(state.params);
    return kid === undefined ? undefined : { device: deviceRecordRead(kid) };
  },
  authenticateWith,
  authenticateSessionWith,
};

/**
 * The certificate read with the token, when it was read for `kid`: undefined when none was, null when it was
 * and is absent.
 */
export function deviceReadWith(state: Pick<RequestState, 'readWithToken' | 'params'>, kid: string | undefined): DeviceRecord | null | undefined {
  const read = state.readWithToken;
  if (!read || !('device' in read) || kid === undefined || namedKid(state.params) !== kid) return undefined;
  return read.device as DeviceRecord | null;
}
