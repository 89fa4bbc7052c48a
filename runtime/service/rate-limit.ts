/**
 * Per-key request rate limiting (a token bucket per environment, or per client address before authentication).
 *
 * In memory, per process: with several instances each enforces its own share, which is the usual trade-off for a
 * limiter that must not add a database round trip to the executor's hot path.
 */

export interface RateLimitOptions {
  /** Requests allowed per window (also the burst size). */
  max: number;
  windowMs: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until one more request is allowed (only when refused). */
  retryAfterSeconds: number;
  remaining: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** A token bucket per key: `max` tokens, refilled continuously at `max / windowMs`. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly refillPerMs: number;
  private lastSweep = 0;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (!(options.max > 0) || !(options.windowMs > 0)) throw new RangeError('rate limit max and windowMs must be positive');
    this.refillPerMs = options.max / options.windowMs;
  }

  /** Takes one token for `key`, or says how long to wait. */
  take(key: string): RateLimitDecision {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.options.max, updatedAt: now };
    bucket.tokens = Math.min(this.options.max, bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs);
    bucket.updatedAt = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.floor(bucket.tokens) };
    }
    const waitMs = (1 - bucket.tokens) / this.refillPerMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), remaining: 0 };
  }

  /** Forgets full buckets now and then, so idle keys do not accumulate. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.options.windowMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (now - bucket.updatedAt) * this.refillPerMs >= this.options.max) this.buckets.delete(key);
    }
  }
}
