import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import { topUpData } from '../../shared/contracts/agent-contract';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  request: z.object({ amount: describe(z.union([z.number(), z.string()]), 'Cents, 1–1000000000') }),
  response: topUpData,
  notes:
    "Moves the amount from your balance to your agent's in one transaction: an agent_topup entry in your ledger (naming the agent) and a topup entry in its. Refused with nothing moved when your balance does not cover it (topup_not_covered), however many adds and top-ups race.",
};
