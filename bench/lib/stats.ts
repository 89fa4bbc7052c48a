/** Small statistics for benchmark samples. Benchmarks report ratios against a baseline measured in the same run. */

export function percentile(sortedMs: readonly number[], p: number): number {
  if (sortedMs.length === 0) return Number.NaN;
  const idx = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[idx] as number;
}

export interface LatencySummary {
  count: number;
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Runs `fn` with `concurrency` workers until `total` calls have completed, recording each call's latency.
 * Used for in-process throughput, where a load generator in another process would measure the generator.
 */
export async function runConcurrent(fn: () => Promise<unknown>, total: number, concurrency: number): Promise<LatencySummary> {
  const latencies: number[] = new Array(total);
  let next = 0;
  const start = performance.now();
  async function worker(): Promise<void> {
    while (true) {
      const i = next++;
      if (i >= total) return;
      const t0 = performance.now();
      await fn();
      latencies[i] = performance.now() - t0;
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  const sorted = latencies.sort((a, b) => a - b);
  return { count: total, opsPerSec: (total / elapsed) * 1000, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

/**
 * Calls per second of a synchronous function: the best of `windows` measurements of at least `minMs` each, after a
 * warm-up. The best, not the mean, because on a shared machine interference only ever makes a window slower.
 */
export function syncOpsPerSec(fn: () => unknown, minMs: number, windows = 5): number {
  for (let i = 0; i < 10_000; i++) fn();
  let best = 0;
  for (let w = 0; w < windows; w++) {
    let calls = 0;
    let batch = 1_000;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < minMs) {
      for (let i = 0; i < batch; i++) fn();
      calls += batch;
      elapsed = performance.now() - start;
      if (elapsed < minMs / 10) batch *= 2;
    }
    best = Math.max(best, (calls / elapsed) * 1000);
  }
  return best;
}

/**
 * Interleaves baseline and subject runs (A B A B ...) and keeps the best of each, so that a noisy neighbour on this
 * shared machine hurts both sides alike. The best, not the median, for the reason `syncOpsPerSec` gives: on a
 * machine shared with other jobs interference only ever makes a window slower, and the load here moves by 2-3x
 * within a minute (the median of three rounds gave executor ratios from 0.66 to 1.16 on unchanged code). Both
 * sides get the same number of windows in the same run, so the ratio still compares like with like.
 */
export async function interleaved<T extends { opsPerSec: number }>(
  rounds: number,
  baseline: () => Promise<T>,
  subject: () => Promise<T>,
): Promise<{ baseline: T; subject: T; ratio: number }> {
  const b: T[] = [];
  const s: T[] = [];
  for (let i = 0; i < rounds; i++) {
    b.push(await baseline());
    s.push(await subject());
  }
  const best = (xs: T[]): T => xs.reduce((x, y) => (y.opsPerSec > x.opsPerSec ? y : x));
  const mb = best(b);
  const ms = best(s);
  return { baseline: mb, subject: ms, ratio: ms.opsPerSec / mb.opsPerSec };
}
