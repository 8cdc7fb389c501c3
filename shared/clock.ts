/**
 * The service's notion of "now". Code that depends on time asks this module, so tests can move time
 * (minute windows, token expiry, force-add periods) without sleeping.
 */
/** Seconds in a day: plan lengths, unlock codes' days. */
export const DAY_SECONDS = 86_400;

let source: () => number = () => Date.now();

export function nowMs(): number {
  return source();
}

export function nowSeconds(): number {
  return Math.floor(source() / 1000);
}

/** Test hook: replace the clock; returns a function that restores the real one. */
export function setClock(next: () => number): () => void {
  source = next;
  return () => {
    source = () => Date.now();
  };
}
