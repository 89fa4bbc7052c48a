/**
 * An HTTP load generator in a process of its own, for the figures autocannon's CLI cannot drive: a different body
 * per request (many users), or a fixed arrival rate whatever the latency (open loop), with latencies kept per
 * request. It sends with undici, one keep-alive socket per concurrent call.
 *
 * As a child: `tsx bench/lib/load-gen.ts` reads its JSON options on stdin (bodies can be many) and prints one JSON
 * result line.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

export interface LoadGenOptions {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Bodies sent in turn (one per request, round robin); none for a GET. */
  bodies?: string[];
  /** Closed loop: this many calls in flight at all times. */
  concurrency?: number;
  /**
   * Closed loop: start the loops evenly over this many seconds instead of all at once (a burst of more new
   * connections than the server's listen backlog, 511 by default in Node, waits for TCP to send their SYNs again).
   */
  rampSeconds?: number;
  /** Open loop: this many calls started per second, whatever the answers do. */
  ratePerSecond?: number;
  durationSeconds: number;
}

export interface LoadGenResult {
  /** Calls answered 2xx per second. */
  opsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  /** Count by status (0: a network error). */
  statuses: Record<string, number>;
  /** How many answers carried Retry-After. */
  retryAfter: number;
  /** p99 of the answers that were not 2xx, ms (how promptly refusals came). */
  refusedP99Ms: number | null;
}

export function runLoadGen(options: LoadGenOptions): Promise<LoadGenResult> {
  return startLoadGen(options).result;
}

/** The load generator, started: its result when it ends, or `stop()` to end it at once (its calls then fail). */
export function startLoadGen(options: LoadGenOptions): { result: Promise<LoadGenResult>; stop(): Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(options));
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const result = exited.then((code) => {
    if (code !== 0) throw new Error(`load generator exited ${code}`);
    return JSON.parse(out.trim().split('\n').at(-1) as string) as LoadGenResult;
  });
  return {
    result,
    async stop() {
      result.catch(() => undefined);
      child.kill('SIGKILL');
      await exited;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

async function generate(o: LoadGenOptions): Promise<LoadGenResult> {
  const { origin, pathname, search } = new URL(o.url);
  const inFlightCap = o.concurrency ?? 10_000;
  const pool = new Pool(origin, { connections: inFlightCap, pipelining: 1, keepAliveTimeout: 60_000 });
  const okLatencies: number[] = [];
  const refusedLatencies: number[] = [];
  const statuses: Record<string, number> = {};
  let retryAfter = 0;
  let next = 0;
  const deadline = performance.now() + o.durationSeconds * 1000;
  const one = async (): Promise<void> => {
    const body = o.bodies && o.bodies.length > 0 ? o.bodies[next++ % o.bodies.length] : undefined;
    const t0 = performance.now();
    let status = 0;
    try {
      const res = await pool.request({ path: `${pathname}${search}`, method: o.method, headers: o.headers ?? {}, body: body ?? null });
      status = res.statusCode;
      if (res.headers['retry-after'] !== undefined) retryAfter++;
      await res.body.dump();
    } catch {
      status = 0;
    }
    const ms = performance.now() - t0;
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) okLatencies.push(ms);
    else refusedLatencies.push(ms);
  };
  const started = performance.now();
  if (o.ratePerSecond) {
    const calls: Promise<void>[] = [];
    const interval = 1000 / o.ratePerSecond;
    for (let i = 0; performance.now() < deadline; i++) {
      calls.push(one());
      const wait = started + (i + 1) * interval - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await Promise.all(calls);
  } else {
    const loops = o.concurrency ?? 1;
    const rampMs = (o.rampSeconds ?? 0) * 1000;
    await Promise.all(
      Array.from({ length: loops }, async (_, i) => {
        if (rampMs > 0) await new Promise((r) => setTimeout(r, (i * rampMs) / loops));
        while (performance.now() < deadline) await one();
      }),
    );
  }
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  okLatencies.sort((a, b) => a - b);
  refusedLatencies.sort((a, b) => a - b);
  return {
    opsPerSec: okLatencies.length / elapsed,
    p50Ms: Math.round(percentile(okLatencies, 50) * 10) / 10,
    p99Ms: Math.round(percentile(okLatencies, 99) * 10) / 10,
    statuses,
    retryAfter,
    refusedP99Ms: refusedLatencies.length ? Math.round(percentile(refusedLatencies, 99) * 10) / 10 : null,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const chunks: Buffer[] = [];
  process.stdin.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => process.stdin.on('end', resolve));
  generate(JSON.parse(Buffer.concat(chunks).toString('utf8')) as LoadGenOptions).then(
    (r) => process.stdout.write(`${JSON.stringify(r)}\n`),
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack}\n`);
      process.exit(1);
    },
  );
}
