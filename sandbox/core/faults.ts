import type { Fault, SandboxService } from '../types.js';

export interface WindowResult {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When denied: milliseconds until the oldest request in the window leaves it. */
  retryAfterMs: number;
}

/**
 * A rolling-window counter per key: at most `max` requests in any `windowMs`. Rolling rather than fixed windows
 * because HubSpot's ten-secondly limit is documented as rolling; a denied request does not count.
 */
export class RollingWindows {
  private readonly hits = new Map<string, number[]>();

  hit(key: string, max: number, windowMs: number, now: number): WindowResult {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - windowMs);
    if (list.length >= max) {
      this.hits.set(key, list);
      const oldest = list[0] ?? now;
      return { allowed: false, remaining: 0, retryAfterMs: Math.max(1, oldest + windowMs - now) };
    }
    list.push(now);
    this.hits.set(key, list);
    return { allowed: true, remaining: max - list.length, retryAfterMs: 0 };
  }

  clear(): void {
    this.hits.clear();
  }
}

/** Faults set per service through {@link SandboxControl.setFault}. */
export class FaultTable {
  private readonly faults = new Map<SandboxService, Fault>();

  set(service: SandboxService, fault: Fault): void {
    const prev = this.faults.get(service) ?? {};
    const next: Fault = { ...prev };
    if (fault.failNext !== undefined) next.failNext = { ...fault.failNext };
    if (fault.latencyMs !== undefined) next.latencyMs = fault.latencyMs;
    if (fault.rateLimit !== undefined) next.rateLimit = { ...fault.rateLimit };
    this.faults.set(service, next);
  }

  clear(service?: SandboxService): void {
    if (service) this.faults.delete(service);
    else this.faults.clear();
  }

  get(service: SandboxService): Fault | undefined {
    return this.faults.get(service);
  }

  /** Takes one injected failure if any is pending for the service. */
  takeFailure(service: SandboxService): { status: number; retryAfterSeconds?: number } | undefined {
    const f = this.faults.get(service)?.failNext;
    if (!f || f.count <= 0) return undefined;
    f.count -= 1;
    return f.retryAfterSeconds === undefined ? { status: f.status } : { status: f.status, retryAfterSeconds: f.retryAfterSeconds };
  }
}
