export interface User {
  userId: string;
  tenantId: string;
  name: string;
  /** Balance in cents. */
  balance: number;
  tokenHash: string;
  /** Epoch seconds after which the token is refused; undefined = no expiry. */
  tokenExpiresAt: number | undefined;
}
