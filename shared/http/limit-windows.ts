/** The calendar windows a rate limit can be counted in, by the name the route table gives them, and their length. */
export const WINDOW_MS = { minute: 60_000, '10 minutes': 600_000, hour: 3_600_000 } as const;

export type WindowKind = keyof typeof WINDOW_MS;
