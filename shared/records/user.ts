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
  /**
   * An agent's resellers above it, the tenant's reseller first and its parent last (shared/domain/agents);
   * empty for a reseller of the operator. Its level is the list's length (1–3).
   */
  upline: readonly string[];
  /** An agent its parent suspended: its adds are refused, nothing charged anywhere. */
  suspended: boolean;
  /** What the parent noted about how to reach the agent (an agent's own, never shown above its parent). */
  contact: string;
  /**
   * An agent's low-balance threshold as its parent set it (cents, 0 = off): the parent is sent `agent.balance_low`
   * once each time the agent's balance falls below it (shared/domain/events/balance-low.ts).
   */
  lowBalance?: number;
  /** When that event was sent for the agent's current stay below the threshold (unset: not below, or not told). */
  lowBalanceSince?: number | undefined;
}

/** How deep agents go under a reseller of the operator: an agent of an agent of an agent. */
export const MAX_AGENT_LEVEL = 3;

export const levelOf = (user: Pick<User, 'upline'>) => user.upline.length;

export const parentOf = (user: Pick<User, 'upline'>): string | undefined => user.upline[user.upline.length - 1];

/** What a request's token says about its holder: enough to authorize, not the balance (read where it is spent). */
export type TokenOwner = Pick<User, 'userId' | 'tenantId' | 'tokenExpiresAt'>;
