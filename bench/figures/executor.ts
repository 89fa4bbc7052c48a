import type { Figure } from '../lib/report.js';
import { figure } from '../lib/report.js';
import { startBenchUser, directCall, gotDirectCall } from '../lib/setup.js';
import { interleaved, runConcurrent } from '../lib/stats.js';

/**
 * Figure 1: a tool call through the in-process executor (resolve, validate, token lookup and decrypt, build, send,
 * normalize) against the same upstream request sent directly with undici, the client the executor sends with (so
 * the ratio is the executor's own cost, not a difference between clients), same concurrency, interleaved.
 */
export async function executorFigures(quick: boolean): Promise<Figure[]> {
  const user = await startBenchUser();
  try {
    const calls = quick ? 4_000 : 10_000;
    const concurrency = 16;
    const rounds = quick ? 5 : 7;
    const direct = directCall(user.upstreamUrl, await user.accessToken());
    const viaExecutor = () =>
      user.harness.env.executeTool({ tool_name: 'crm_contact_get', identifier: user.identifier, tool_input: { contact_id: user.contactId } });
    // Warm both paths (JIT, sockets, caches) before measuring.
    await runConcurrent(direct, 300, concurrency);
    await runConcurrent(viaExecutor, 300, concurrency);
    const r = await interleaved(rounds, () => runConcurrent(direct, calls, concurrency), () => runConcurrent(viaExecutor, calls, concurrency));
    // For the record: the same request sent directly with got, the baseline the issue first named.
    const viaGot = gotDirectCall(user.upstreamUrl, await user.accessToken());
    await runConcurrent(viaGot, 300, concurrency);
    const g = await interleaved(quick ? 3 : 5, () => runConcurrent(viaGot, calls, concurrency), () => runConcurrent(viaExecutor, calls, concurrency));
    return [
      figure('executor_vs_direct_throughput_ratio', round(r.ratio), undefined, `${fmt(r.subject.opsPerSec)} vs ${fmt(r.baseline.opsPerSec)} calls/s, c=${concurrency}`),
      figure('executor_p50_ms', round(r.subject.p50Ms), undefined, `direct ${round(r.baseline.p50Ms)} ms`),
      figure('executor_p99_ms', round(r.subject.p99Ms), undefined, `direct ${round(r.baseline.p99Ms)} ms`),
      figure('executor_vs_got_direct_throughput_ratio', round(g.ratio), undefined, `${fmt(g.subject.opsPerSec)} vs ${fmt(g.baseline.opsPerSec)} calls/s sent directly with got`),
    ];
  } finally {
    await user.harness.close();
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;
const fmt = (v: number) => Math.round(v).toLocaleString('en-US');
