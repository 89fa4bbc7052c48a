/**
 * Traces and metrics through @opentelemetry/api, seen by the SDK's in-memory exporters: a tool call whose token the
 * upstream refuses gives request span -> executor span -> attempt spans and a refresh span (with its own token
 * request), each under the right parent; no attribute holds a token, a secret or an identifier; the call, error,
 * latency and refresh instruments record.
 */
import { context, metrics, trace } from '@opentelemetry/api';
import { metrics as sdkMetrics, node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentThroughSandbox } from '../../../runtime/cli/consent.js';
import { startHarness, type Harness } from '../../service/harness.js';

const spans = new node.InMemorySpanExporter();
const metricExporter = new sdkMetrics.InMemoryMetricExporter(sdkMetrics.AggregationTemporality.CUMULATIVE);
const reader = new sdkMetrics.PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
let h: Harness;

beforeAll(async () => {
  // What the Node SDK does when OTEL_* asks for it: a global tracer provider with an async-context manager, a meter
  // provider. Registered before the connector is created, as `startService` does.
  new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(spans)] }).register();
  metrics.setGlobalMeterProvider(new sdkMetrics.MeterProvider({ readers: [reader] }));
  h = await startHarness();
});

afterAll(async () => {
  await h?.close();
  trace.disable();
  context.disable();
  metrics.disable();
});

describe('OpenTelemetry', () => {
  it('nests request -> executor -> attempts and a refresh, with no secret in any attribute', async () => {
    const token = await h.token(h.a);
    await h.sandboxConnection(h.a, 'calendar');
    const link = await h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'calendar', identifier: 'traced-user' } });
    expect((await consentThroughSandbox(link.body.link, { user: 'traced@example.com' })).status).toBe(200);
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
