const HOUR_MS = 60 * 60 * 1000;

/** Apple's per-key budget of requests in the last hour, reported as `X-Rate-Limit: user-hour-lim:N;user-hour-rem:M;`. */
export class HourlyBudget {
  readonly #stamps: number[] = [];

  constructor(public limit: number) {}

  /** Counts a request made at `now`; false (and not counted) when the last hour has used the whole budget. */
  take(now: number): boolean {
    this.#forgetBefore(now - HOUR_MS);
    if (this.#stamps.length >= this.limit) return false;
    this.#stamps.push(now);
    return true;
  }

  remaining(now: number): number {
    this.#forgetBefore(now - HOUR_MS);
    return Math.max(0, this.limit - this.#stamps.length);
  }

  header(now: number): string {
    return `user-hour-lim:${this.limit};user-hour-rem:${this.remaining(now)};`;
  }

  #forgetBefore(cutoff: number): void {
    while (this.#stamps.length > 0 && (this.#stamps[0] ?? cutoff) <= cutoff) this.#stamps.shift();
  }
}
