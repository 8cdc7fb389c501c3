import type { AccountMode } from './account';

/** An activation code as stored: the service (`activation-codes.ts`) and the repository both speak it. */
export interface ActivationCode {
  code: string;
  tenantId: string;
  mode: AccountMode;
  tier: number;
  /** The user the operator created the code for (a reseller hands it on). */
  createdFor: string;
  createdAt: number;
  usedBy: string | undefined;
  usedAt: number | undefined;
}
