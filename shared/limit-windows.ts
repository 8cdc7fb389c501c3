/** The calendar windows a rate limit can be counted in, by the name the route table gives them, and their length. */
export const WINDOW_MS = { minute: 60_000, '10 minutes': 600_000, hour: 3_600_000 } as const;

export type WindowKind = keyof typeof WINDOW_MS;

const MINUTE_MS: number = WINDOW_MS.minute;

/** The calendar minute holding `nowMs`: its key fragment and when it ends. */
export interface MinuteWindow {
  /** `2026-11-22T03:17Z`: readable in the table and unique per minute. */
  id: string;
  /** Epoch seconds at which the next window starts (the `X-RateLimit-Reset` value). */
  resetAt: number;
  /** Whole seconds until the next window, at least 1 (the `Retry-After` value). */
  retryAfter: number;
}

/** The calendar window holding `nowMs`: a minute, or any other length (an hour for hourly limits). */
export function minuteWindow(nowMs: number, lengthMs = MINUTE_MS): MinuteWindow {
  const start = Math.floor(nowMs / lengthMs) * lengthMs;
  const end = start + lengthMs;
  return {
    id: `${new Date(start).toISOString().slice(0, 16)}Z`,
    resetAt: end / 1000,
    retryAfter: Math.max(1, Math.ceil((end - nowMs) / 1000)),
  };
}
