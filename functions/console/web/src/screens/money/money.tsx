/** Money: the plan and subscription (buy, trial), and the ledger with its filters, paging and CSV export. */
import type { ScreenProps } from '../registry';
import { Ledger } from './ledger';
import { Subscription } from './subscription';

export default function Money({ query }: ScreenProps) {
  return (
    <>
      <Subscription />
      <Ledger key={query.toString()} query={query} />
    </>
  );
}
