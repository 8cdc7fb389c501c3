/** An add as the add routes parsed it: what the add service is asked to do. */
import type { AccountMode } from '../../records/account';
import type { PricedClass } from '../pricing/prices';
import type { DevicePool } from '../../records/device';

export interface AddRequest {
  udid: string;
  mode: AccountMode;
  force: boolean;
  /** Undefined when the client named none (the code's tier, or 0, applies). */
  tier: number | undefined;
  pool: DevicePool;
  deviceClass: PricedClass;
  beizhu: string;
  code: string | undefined;
  /** Only a free re-issue under warranty may happen (the customer's own re-issue): anything else is refused. */
  freeOnly?: boolean;
}
