import * as z from 'zod/mini';
import type { FunctionContract } from '../../shared/contracts/function-contract';

export const contract: FunctionContract = {
  response: z.object({ source_id: z.string(), news_id: z.string(), deleted: z.literal(true) }),
  notes: 'Deletes the news item of the path; one the source does not hold answers 404 with code 40005 news_not_found.',
};
