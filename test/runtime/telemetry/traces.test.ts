/**
 * Traces and metrics through @opentelemetry/api, seen by the SDK's in-memory exporters: a tool call whose token the
 * upstream refuses gives request span -> executor span -> attempt spans and a refresh span (with its own token
 * request), each under the right parent; no attribute holds a token, a secret or an identifier; the call, error,
 * latency and refresh instruments record.
 */
import { Writable } from 'node:stream';
import { context, metrics, SpanStatusCode, trace } from '@opentelemetry/api';
import { metrics as sdkMetrics, node } from '@opentelemetry/sdk-node';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from '../../service/harness.js';

const spans = new node.InMemorySpanExporter();
const metricExporter = new sdkMetrics.InMemoryMetricExporter(sdkMetrics.AggregationTemporality.CUMULATIVE);
const reader = new sdkMetrics.PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
let h: Harness;

class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}
const logs = new Capture();

async function until<T>(what: string, read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`never: ${what}`);
}

beforeAll(async () => {
  // What the Node SDK does when OTEL_* asks for it: a global tracer provider with an async-context manager, a meter
  // provider. Registered before the connector is created, as `startService` does.
  new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(spans)] }).register();
  metrics.setGlobalMeterProvider(new sdkMetrics.MeterProvider({ readers: [reader] }));
  h = await startHarness({ logStream: logs });
});

afterAll(async () => {
  await h?.close();
  trace.disable();
  context.disable();
  metrics.disable();
});

describe('OpenTelemetry', () => {
  it('nests request -> executor -> attempts and a refresh, with no secret in any attribute', async () => {
    const { token } = await connectSandboxUser(h, { connector: 'calendar', identifier: 'traced-user', user: 'traced@example.com' });
    // The provider forgets the access token: the call gets 401, refreshes once, and retries.
    h.sandbox.control.expireAccessTokens('google', 'traced@example.com');
    spans.reset();
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'traced-user', tool_input: {} } });
    expect(res.status).toBe(200);

    const finished = spans.getFinishedSpans();
    const byName = (name: string) => finished.filter((s) => s.name === name);
    const [server] = byName('POST /api/v1/execute_tool');
    const [executor] = byName('execute_tool calendar_list_calendars');
    const [refresh] = byName('oauth.refresh');
    expect(server && executor && refresh).toBeTruthy();
    const parentOf = (s: (typeof finished)[number]) => s.parentSpanContext?.spanId;
    expect(parentOf(executor!)).toBe(server!.spanContext().spanId);
    expect(executor!.spanContext().traceId).toBe(server!.spanContext().traceId);
    expect(parentOf(refresh!)).toBe(executor!.spanContext().spanId);

    const attempts = byName('HTTP GET').filter((s) => parentOf(s) === executor!.spanContext().spanId);
    expect(attempts.map((s) => s.attributes['http.response.status_code'])).toEqual([401, 200]);
    const tokenRequests = byName('HTTP POST').filter((s) => parentOf(s) === refresh!.spanContext().spanId);
    expect(tokenRequests.map((s) => s.attributes['http.response.status_code'])).toEqual([200]);
    expect(executor!.attributes).toMatchObject({
      'agent_connector.execution.id': res.body.execution_id,
      'agent_connector.outcome': 'success',
      'agent_connector.attempts': 2,
      'agent_connector.connection': 'calendar',
    });

    const account = await h.connector.store.findAccount(h.a.environmentId, (await h.connector.environment(h.a.environmentId).getConnection('calendar')).id, 'traced-user');
    const attributes = JSON.stringify(finished.map((s) => s.attributes));
    for (const secret of [account!.tokens!.accessToken, account!.tokens!.refreshToken!, token, h.a.clientSecret, 'traced-user', 'traced@example.com']) {
      expect(attributes).not.toContain(secret);
    }
    expect(attributes).not.toMatch(/Bearer|access_token|refresh_token/);
  });

  it('a request whose client goes away before the answer ends its span and writes its one line', async () => {
    const { token } = await connectSandboxUser(h, { connector: 'crm', identifier: 'leaving-user', user: 'leaving@example.com' });
    h.sandbox.control.setFault('crm', { latencyMs: 1000 });
    try {
      spans.reset();
      const firstLine = logs.lines.length;
      const client = new AbortController();
      // A client of its own, destroyed after: once the call was aborted, the shared fetch pool held another connection
      // to the service with no request on it, which the service's close waited for (Node does not count it idle).
      const dispatcher = new Agent();
      const call = fetch(`${h.url}/api/v1/execute_tool`, {
        method: 'POST',
        signal: client.signal,
        dispatcher,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tool_name: 'crm_contacts_list', identifier: 'leaving-user', tool_input: {} }),
      });
      // The upstream answers after a second; the client leaves long before.
      await new Promise((r) => setTimeout(r, 150));
      client.abort();
      await expect(call).rejects.toThrow();
      await dispatcher.destroy();

      const server = await until('the request span', () => spans.getFinishedSpans().find((s) => s.name === 'POST /api/v1/execute_tool'));
      expect(server.status.code).toBe(SpanStatusCode.ERROR);
      expect(server.attributes['error.type']).toBe('client_closed');
      // The call runs on to its end: its own span ends under the request's, and no second line or span comes.
      await until('the executor span (the call ran on)', () => spans.getFinishedSpans().find((s) => s.name === 'execute_tool crm_contacts_list'));
      await new Promise((r) => setTimeout(r, 50));
      expect(spans.getFinishedSpans().filter((s) => s.name === 'POST /api/v1/execute_tool')).toHaveLength(1);
      const lines = logs.lines.slice(firstLine).map((l) => JSON.parse(l) as { msg: string; req?: { url?: string } });
      const ours = lines.filter((l) => l.req?.url === '/api/v1/execute_tool');
      expect(ours.map((l) => l.msg)).toEqual(['request closed before it was answered']);
    } finally {
      h.sandbox.control.clearFaults('crm');
    }
  });

  it('counts calls, errors, latency and refreshes', async () => {
    const token = await h.token(h.a);
    await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'calendar_list_calendars', identifier: 'nobody', tool_input: {} } });
    await reader.forceFlush();
    const exported = metricExporter.getMetrics().flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics));
    const named = (name: string) => exported.filter((m) => m.descriptor.name === name).flatMap((m) => m.dataPoints as { attributes: Record<string, unknown>; value: unknown }[]);
    const calls = named('agent_connector.executions');
    expect(calls.some((p) => p.attributes['agent_connector.outcome'] === 'success')).toBe(true);
    expect(named('agent_connector.execution.errors').some((p) => p.attributes['error.type'] === 'account_not_found' || p.attributes['error.type'] === 'reauthorization_required')).toBe(true);
    expect(named('agent_connector.execution.duration').length).toBeGreaterThan(0);
    expect(named('agent_connector.token.refreshes').some((p) => p.attributes.outcome === 'success' && p.value === 1)).toBe(true);
  });
});
