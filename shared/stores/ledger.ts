/**
 * The ledger store of every function that reaches the ledger's rules: the DynamoDB repository, wired when the
 * handler imports this module. Here, above both floors, the compiler checks that the repository implements
 * the interface the rules declared.
 */
import { appendLedger, appendLedgerMoves, ledgerEntries, readLedgerHead } from '../db/repositories/ledger-repository';
import type { LedgerStore } from '../domain/ledger/ledger-store';
import { wireStores } from '../domain/stores';

export const dynamoLedgerStore: LedgerStore = { readHead: readLedgerHead, append: appendLedger, appendMoves: appendLedgerMoves, entries: ledgerEntries };

wireStores({ ledger: dynamoLedgerStore });
