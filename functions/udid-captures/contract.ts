import * as z from 'zod/mini';
import { describe } from '../../shared/contracts/describe';
import type { FunctionContract } from '../../shared/contracts/function-contract';

const capture = z.object({
  capture_id: z.string(),
  udid: z.string(),
  product: describe(z.string(), "Apple's model identifier, e.g. iPhone15,2"),
  version: describe(z.string(), 'iOS version'),
  device_name: z.string(),
  source_id: describe(z.string(), "The source whose profile was installed; '' for the tenant profile"),
  return_url: z.string(),
  captured_at: describe(z.number(), 'Unix seconds'),
  verified: describe(z.boolean(), 'Always true: only verified device answers are recorded'),
});

export const contract: FunctionContract = {
  request: z.object({
    token: z.string(),
    limit: describe(z.optional(z.string()), '1–100, default 20'),
    cursor: describe(z.optional(z.string()), "The previous page's next_cursor"),
  }),
  response: z.object({ captures: z.array(capture), next_cursor: describe(z.nullable(z.string()), 'null on the last page') }),
  notes: "Captures made through the caller's sources' profiles, or through the tenant profile with user=<caller>. For a storefront that missed the redirect. 60 per minute.",
};
