/**
 * When a failed delivery is tried again: backoff growing from seconds to hours, with jitter so that deliveries
 * that failed together (a receiver that was down) do not all return at the same instant, for
 * {@link DELIVERY_WINDOW_MS} after the event; the last try is at the window's end, and a failure then is final.
 */

/** How long the service keeps trying to deliver one event. */
export const DELIVERY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Delay before the retry after the n-th failed attempt (n = 1, 2, ...); the last entry repeats. */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 2 * 3_600_000, 4 * 3_600_000, 8 * 3_600_000];

/** Each delay is scaled by a factor in [1 - JITTER, 1 + JITTER]. */
const JITTER = 0.2;

/**
 * The time of the next attempt after `attempts` failed ones, or null when the window is over (the delivery fails).
 * @param random in [0, 1); injected in tests.
 */
export function nextAttemptAt(attempts: number, eventCreatedAt: number, now: number, random: () => number = Math.random): number | null {
  const deadline = eventCreatedAt + DELIVERY_WINDOW_MS;
  if (now >= deadline) return null;
  const base = RETRY_DELAYS_MS[Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1] as number;
  const delay = base * (1 - JITTER + 2 * JITTER * random());
  return Math.min(now + delay, deadline);
}
