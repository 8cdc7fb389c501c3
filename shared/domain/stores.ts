/**
 * The stores the domain's rules use, by the interfaces the domain declares (`ledger/ledger-store.ts`, …).
 * Each is wired once per process at its entry: a function's handler imports the wiring of the stores its
 * code reaches (`shared/stores/<store>.ts`: the DynamoDB repository), as do the operator CLI and the local
 * runtime; a rule test wires in-memory ones. A rule never names the database it runs on, and a function
 * carries (and is granted) only the repositories it uses. `test/architecture` checks that every function
 * whose code reaches a store wires it.
 *
 * A registry rather than stores passed in each call's context: a Lambda is one process wired once before its
 * first request, so the two are the same contract, and most callers of the rules (the add, the worker, the
 * sweep, the operator CLI) receive no context to carry them (test/README.md, "Rule tests on in-memory stores").
 */
import type { SlotStore } from './add-device/slot-store';
import type { LedgerStore } from './ledger/ledger-store';
import type { ProtectionStore } from './sources/protection-store';
import type { PlanStore, SubscriptionStore } from './subscriptions/subscription-store';
import type { TransactionStore } from './transaction-store';

export interface Stores {
  ledger: LedgerStore;
  subscriptions: SubscriptionStore;
  plans: PlanStore;
  protection: ProtectionStore;
  transactions: TransactionStore;
  slots: SlotStore;
}

const wired: Partial<Stores> = {};

export function wireStores(stores: Partial<Stores>): void {
  Object.assign(wired, stores);
}

export function store<K extends keyof Stores>(name: K): Stores[K] {
  const found = wired[name];
  if (!found) throw new Error(`No ${name} store is wired: the function's handler imports shared/stores/${name}.ts (a test wires its own)`);
  return found;
}
