export interface User {
  userId: string;
  tenantId: string;
  name: string;
  /** Balance in cents. */
  balance: number;
  /** The sequence of the user's last ledger entry (0: none yet); every balance change moves it (shared/domain/ledger). */
  ledgerSeq: number;
  tokenHash: string;
  /** Epoch seconds after which the token is refused; undefined = no expiry. */
  tokenExpiresAt: number | undefined;
}

/** What a request's token says about its holder: enough to authorize, not the balance (read where it is spent). */
export type TokenOwner = Pick<User, 'userId' | 'tenantId' | 'tokenExpiresAt'>;
