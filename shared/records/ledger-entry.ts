/**
 * The ledger's model: one immutable entry per change of a user's balance or use of their activation codes,
 * numbered by the user's ledger sequence (1, 2, …) and carrying the balance it left (`balanceAfter`).
 *
 * Kinds: `opening` (a balance brought in: user creation, an import from a PHP panel, a balance that predates
 * the ledger), `credit` (the operator's), `charge` (an add's payment hold: the price, or 0 for a code),
 * `refund` (a released hold, with its reason), `review_refund` (a failed review reservation's charge given
 * back), `subscription` (a plan bought from the balance).
 *
 * Agents (shared/domain/agents): in an agent's add, each reseller above it gets `agent_sale` (+ what the level
 * below paid it) and `agent_cost` (− its own price, paid upward), in the transaction that delivers the add (a
 * refund comes before it, so nothing above the agent is unwound and no `agent_refund` entry is written today).
 * A parent's top-up of an agent
 * is `agent_topup` (−) on the parent and `topup` (+) on the agent, in one transaction.
 */
export const LEDGER_KINDS = ['opening', 'credit', 'charge', 'refund', 'review_refund', 'subscription', 'agent_sale', 'agent_cost', 'agent_refund', 'agent_topup', 'topup'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** What an entry belongs to; only what applies is set. */
export interface LedgerRef {
  /** The payment hold of an add (its charge and, at most once, its refund). */
  hold_id?: string;
  /** The certificate the add delivers (or would have). */
  kid?: string;
  reservation_id?: string;
  udid?: string;
  mode?: 'instant' | 'review';
  tier?: number;
  /** The activation code claimed or given back (the amount is then 0). */
  code?: string;
  plan?: string;
  /** Why a refund happened (`apple_unavailable`, `add_not_recorded`, `stale_hold`, `ineligible`, …). */
  reason?: string;
  /** Free text from the operator (credits, imports). */
  note?: string;
  /**
   * The agent an entry is about: on an agent's add, the agent that added (on every level's entries); on a
   * top-up, the agent topped up (on the parent's entry).
   */
  agent_id?: string;
  /** On an agent's add, the level of the entry's own user in the chain (0: the reseller of the operator). */
  level?: number;
}

export const LEDGER_REF_FIELDS = ['hold_id', 'kid', 'reservation_id', 'udid', 'mode', 'tier', 'code', 'plan', 'reason', 'note', 'agent_id', 'level'] as const satisfies readonly (keyof LedgerRef)[];

export interface LedgerEntry {
  userId: string;
  tenantId: string;
  seq: number;
  /** Epoch seconds. */
  time: number;
  kind: LedgerKind;
  /** Signed cents: negative takes from the balance. */
  amount: number;
  balanceAfter: number;
  ref: LedgerRef;
}

/** The state an entry follows: the user's balance and the sequence of their last entry (0: none yet). */
export interface LedgerHead {
  userId: string;
  tenantId: string;
  balance: number;
  seq: number;
}

/** What a caller's change is: the amount (signed cents), its kind, what it belongs to, when. */
export interface LedgerChange {
  amount: number;
  kind: LedgerKind;
  ref: LedgerRef;
  at: number;
}

export type LedgerEntryView = { seq: number; time: number; kind: LedgerKind; amount: number; balance_after: number } & LedgerRef;

/** The answer's shape of an entry (the API and the CLI): only the references that are set. */
export function entryView(entry: LedgerEntry): LedgerEntryView {
  const ref: Record<string, string | number> = {};
  for (const field of LEDGER_REF_FIELDS) {
    const value = entry.ref[field];
    if (value !== undefined && value !== '') ref[field] = value;
  }
  return { seq: entry.seq, time: entry.time, kind: entry.kind, amount: entry.amount, balance_after: entry.balanceAfter, ...ref };
}
