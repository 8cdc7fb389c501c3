/** An activation code as a person types it (the customer's redeem form). */
import * as z from 'zod/mini';
import { CODE_PATTERN } from '../domain/pricing/activation-codes';
import { preprocess } from './fields';

/** Letters and digits, 4 to 64, any case, spaces around ignored. */
export const activationCodeField = () => preprocess((v) => (typeof v === 'string' ? v.trim().toUpperCase() : v), z.string().check(z.regex(CODE_PATTERN)));
