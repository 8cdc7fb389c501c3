/**
 * A user's balance (cents, on the user item). It moves only under a condition: a debit while it covers the
 * amount, a credit while the user exists. An add's debit and a refund's credit go inside the transactions
 * that hold the payment or give it back (as opaque parts); an operator's credit is a write of its own.
 */
import { updateIf } from '../conditional-write';
import { tableName } from '../tables';
import { transactionPart, type TransactionPart } from '../transactions';
import { userFromItem } from './user-repository';
import type { User } from '../../domain/users/user';

function debit(userId: string, amount: number) {
  return {
    TableName: tableName('users'),
    Key: { user_id: userId },
    // `balance_check`: the low-balance pass looks at this user next (balance-watch-repository.ts).
    UpdateExpression: 'SET balance = balance - :a, balance_check = :check',
    ConditionExpression: 'attribute_exists(user_id) AND balance >= :a',
    ExpressionAttributeValues: { ':a': amount, ':check': 'due' },
  };
}

function credit(userId: string, amount: number) {
  return {
    TableName: tableName('users'),
    Key: { user_id: userId },
    UpdateExpression: 'SET balance = if_not_exists(balance, :zero) + :a, balance_check = :check',
    ConditionExpression: 'attribute_exists(user_id)',
    ExpressionAttributeValues: { ':a': amount, ':zero': 0, ':check': 'due' },
  };
}

export function balanceDebitPart(userId: string, amount: number): TransactionPart {
  return transactionPart({ Update: debit(userId, amount) });
}

export function balanceCreditPart(userId: string, amount: number): TransactionPart {
  return transactionPart({ Update: credit(userId, amount) });
}

/** The user after the credit; undefined when there is no such user. */
export async function creditBalance(userId: string, amount: number): Promise<User | undefined> {
  const out = await updateIf({ ...credit(userId, amount), ReturnValues: 'ALL_NEW' });
  return out.written ? userFromItem(out.output.Attributes ?? {}) : undefined;
}
