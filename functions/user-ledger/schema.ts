import * as z from 'zod/mini';
import { LEDGER_KINDS, type LedgerKind } from '../../shared/records/ledger-entry';
import type { RequestState } from '../../shared/http/request-state';
import { agentIdParam, preprocess } from '../../shared/validation/fields';
import { checkRange, cursorParam, decodeCursor, LIST_LIMIT, listLimit, parseListParams, unixSeconds } from '../../shared/validation/list-params';

/** One kind or several, comma-separated (`charge,refund`), case-insensitive. */
const kinds = preprocess(
  (v) => {
    const t = typeof v === 'string' ? v.trim() : v;
    if (t === '' || t === null) return undefined;
    return typeof t === 'string' ? [...new Set(t.toLowerCase().split(',').map((k) => k.trim()))] : t;
  },
  z.optional(z.array(z.enum(LEDGER_KINDS)).check(z.minLength(1))),
);

export const ledgerShape = { limit: listLimit(), cursor: cursorParam(), kind: kinds, from: unixSeconds(), to: unixSeconds(), agent: agentIdParam() };

const cursorShape = z.object({ s: z.number().check(z.refine((n) => Number.isSafeInteger(n) && n >= 1)) });

export function parseRequest({ params }: Pick<RequestState, 'params'>): { kinds: LedgerKind[] | undefined; from: number | undefined; to: number | undefined; beforeSeq: number | undefined; limit: number; agent: string | undefined } {
  const p = parseListParams(params, ledgerShape);
  checkRange(p.from, p.to, ['from', 'to']);
  return { kinds: p.kind, from: p.from, to: p.to, beforeSeq: decodeCursor(p.cursor, cursorShape)?.s, limit: p.limit ?? LIST_LIMIT.default, agent: p.agent };
}
