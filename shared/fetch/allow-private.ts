import { config } from '../config';

/**
 * Whether user-given URLs may point at loopback and private networks. Only the local runtime and the tests
 * set `FETCH_ALLOW_PRIVATE=1` (everything there lives on localhost); the deployed stack never does.
 */
export function privateAddressesAllowed(): boolean {
  return config().fetchAllowPrivate;
}
