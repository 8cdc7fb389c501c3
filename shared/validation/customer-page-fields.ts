/** Field rules of the customer's pages and actions: the one-time ticket, results, codes, certificates. */
import * as z from 'zod/mini';
import { PROOF_TOKEN_PATTERN } from '../domain/self-service/proof';
import { KID_PATTERN } from '../records/device';
import { preprocess } from './fields';

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : value);
const lowered = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** The capture's one-time ticket (`st`): 43 base64url characters. */
export const pageTicketField = () => preprocess(trimmed, z.string().check(z.regex(PROOF_TOKEN_PATTERN)));
export const doneField = () => preprocess(lowered, z.enum(['ready', 'review']));
/** The mode a reseller's link may fix for redeemed codes (`?mode=review` for a review-only page). */
export const modeField = () => preprocess(lowered, z.enum(['instant', 'review']));
export const kidField = () => preprocess(trimmed, z.string().check(z.regex(KID_PATTERN)));
/** The source whose page an action returns to (absent: the tenant's page). */
export const sourceIdField = () => preprocess(trimmed, z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/)));

/** An agent's store on the site's domain (`?store=`): the agent's id. */
export const storeField = () => preprocess(trimmed, z.string().check(z.regex(/^[A-Za-z0-9_-]{1,128}$/)));

/** What a customer page's URL may carry besides the capture's own parameters. */
export const customerPageShape = {
  st: z.optional(pageTicketField()),
  done: z.optional(doneField()),
  mode: z.optional(modeField()),
};
