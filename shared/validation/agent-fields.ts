/** The fields of the agent routes (`/api/user/agents…`). */
import * as z from 'zod/mini';
import { ACCOUNT_MODES } from '../records/account';
import { PRICED_CLASSES } from '../domain/pricing/prices';
import { tierAllowedIn } from '../domain/pricing/warranty';
import { BALANCE_THRESHOLD_MAX, flag, intBetween } from './event-fields';
import { agentIdParam, fromJsonText, preprocess, text } from './fields';
import { MAX_BANDS } from '../records/price-band';

/** Cents, as any price: at most 10,000,000.00. */
export const PRICE_MAX = 1_000_000_000;
/** Settings in one request at most: every (mode, tier, class) there is, twice over. */
const PRICES_MAX = 40;

/** A volume band: from the `from`-th add of the month on, `price` (records/price-band.ts). */
const band = z.object({ from: intBetween(2, 1_000_000), price: intBetween(0, PRICE_MAX) });

const priceSetting = z
  .object({
    mode: z.enum(ACCOUNT_MODES),
    warranty: intBetween(0, 6),
    device_type: z.enum(PRICED_CLASSES),
    price: intBetween(0, PRICE_MAX),
    bands: z.optional(z.array(band).check(z.maxLength(MAX_BANDS))),
  })
  .check(z.refine((s) => tierAllowedIn(s.mode, s.warranty) && [0, 1, 2, 3, 4, 6].includes(s.warranty)));

/** A JSON array of settings (or its JSON text, from a form). */
export const agentPrices = () => preprocess(fromJsonText, z.array(priceSetting).check(z.maxLength(PRICES_MAX)));

export const agentName = () => text(64, { min: 1 });
export const agentContact = () => text(200);

/** The parent's low-balance threshold for an agent: cents, 0 = off. */
export const agentLowBalance = () => intBetween(0, BALANCE_THRESHOLD_MAX);

export const agentCreateShape = { name: agentName(), contact: z.optional(agentContact()), prices: z.optional(agentPrices()), low_balance: z.optional(agentLowBalance()) };
export const agentChangeShape = { name: z.optional(agentName()), contact: z.optional(agentContact()), suspended: z.optional(flag()), prices: z.optional(agentPrices()), low_balance: z.optional(agentLowBalance()) };
export const topUpShape = { amount: intBetween(1, PRICE_MAX) };

/** The agent a request names (required where it appears). */
export const agentIdShape = { agent_id: z.pipe(agentIdParam(), z.string()) };
