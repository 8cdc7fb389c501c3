/** Timing rules shared by the scheduled-job wrapper and the stack that sets each job's timeout. */

/** Left at the end of a run for the item in progress (an Apple call times out after 15 s) and the lease release. */
export const RUN_SAFETY_MARGIN_MS = 20_000;
/** Lambda has stopped the run by its timeout; the lease outlives it by this much, never by a whole interval. */
export const LEASE_SLACK_SECONDS = 5;
