/**
 * Volume bands on a price row: from the `from`-th add of a UTC month on, the add costs `price` (cents) instead
 * of the row's own price. A row's bands start above 1 and go up, each cheaper than the one before (the row's own
 * price first), so the price only ever falls as the month's adds go up.
 *
 * Whose adds count (add-count-repository.ts): a user's adds of the month paid from the balance, its own and
 * those of every agent below it, less those refunded. The band of an add is decided with that count in the
 * transaction that takes the add's payment, so under concurrent adds the N-th add gets the N-th add's price
 * exactly once.
 */

export interface PriceBand {
  /** The add of the month (1 = the first) from which this price applies. */
  from: number;
  /** Cents. */
  price: number;
}

/** Bands on one price row at most: more is a price list, not a discount. */
export const MAX_BANDS = 5;

/** What the `ordinal`-th add of the month costs under a row of `price` with `bands`. */
export function priceAtOrdinal(price: number, bands: readonly PriceBand[] | undefined, ordinal: number): number {
  let out = price;
  for (const band of bands ?? []) if (ordinal >= band.from) out = band.price;
  return out;
}

/**
 * Why `bands` are not valid under a row of `price`: `order` when a band does not start after the one before
 * (or at the first add), `not_lower` when its price is not below the one before it. Undefined when valid.
 */
export function bandsProblem(price: number, bands: readonly PriceBand[]): { problem: 'order' | 'not_lower'; index: number } | undefined {
  let from = 1;
  let before = price;
  for (const [index, band] of bands.entries()) {
    if (band.from <= from) return { problem: 'order', index };
    if (band.price >= before) return { problem: 'not_lower', index };
    from = band.from;
    before = band.price;
  }
  return undefined;
}

/** The UTC month (`2026-11`) an add at `time` (Unix seconds) counts in. */
export const addMonth = (time: number) => new Date(time * 1000).toISOString().slice(0, 7);

/** Bands as stored on a price row (a list of `{from, price}` maps); anything else is no bands. */
export function bandsFromItem(value: unknown): PriceBand[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.map((b: { from?: unknown; price?: unknown }) => ({ from: Number(b.from), price: Number(b.price) }));
}
