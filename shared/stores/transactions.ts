/**
 * The transaction store of every function whose rules write several stores' parts at once without the ledger:
 * DynamoDB's `TransactWriteItems`, wired when the handler imports this module.
 */
import { transactWrite } from '../db/transactions';
import type { TransactionStore } from '../domain/transaction-store';
import { wireStores } from '../domain/stores';

export const dynamoTransactionStore: TransactionStore = {
  async write(parts, options) {
    const outcome = await transactWrite(parts, options);
    return outcome.ok ? outcome : { ok: false, failed: outcome.failed };
  },
};

wireStores({ transactions: dynamoTransactionStore });
