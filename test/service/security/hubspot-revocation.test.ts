/**
 * Security review, item 15: HubSpot's revocation puts the refresh token in the URL path
 * (`DELETE /oauth/v1/refresh-tokens/{token}`, its API's design). Disconnecting a HubSpot account through the running
 * service must leave that token in no log line, no trace (spans carry method, host, port and status only), no
 * execution record and no request the sandbox records.
 */
import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from '../harness.js';

const spans = new node.InMemorySpanExporter();
const lines: string[] = [];
let h: Harness;
beforeAll(async () => {
  new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(spans)] }).register();
  const logStream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  h = await startHarness({ rateLimit: false, logStream });
});
afterAll(async () => {
  await h?.close();
  trace.disable();
  context.disable();
});

describe('HubSpot revocation URL (item 15)', () => {
  it('disconnecting revokes at HubSpot, and the refresh token in that URL is in no log, trace, execution or sandbox record', async () => {
    const { token, accountId } = await connectSandboxUser(h, { connector: 'crm', connection: 'hubspot', identifier: 'crm-user', user: 'crm@example.com' });
    const refreshToken = (await h.connector.store.getAccount(h.a.environmentId, accountId))!.tokens!.refreshToken!;
    expect(refreshToken.length).toBeGreaterThan(8);

    h.sandbox.control.clearRequests();
    spans.reset();
    const res = await h.call('DELETE', `/api/v1/connected_accounts/${accountId}`, { token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('DISCONNECTED');

    // The revocation reached the sandbox, at the path-token endpoint, recorded without the token.
    const recorded = h.sandbox.control.requests().filter((r) => r.method === 'DELETE' && r.path.includes('/oauth/v1/refresh-tokens/'));
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.path).toMatch(/\/oauth\/v1\/refresh-tokens\/\[redacted\]$/);
    const everything = [
      JSON.stringify(h.sandbox.control.requests()),
      lines.join('\n'),
      JSON.stringify(spans.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events }))),
    ].join('\n');
    expect(spans.getFinishedSpans().some((s) => s.attributes['http.request.method'] === 'DELETE')).toBe(true);
    expect(everything).not.toContain(refreshToken);
    expect(everything).not.toContain(encodeURIComponent(refreshToken));
    expect(everything).not.toContain('refresh-tokens/' + refreshToken.slice(0, 12));

    const executions = await h.call('GET', '/api/v1/executions', { token });
    if (executions.status === 200) expect(JSON.stringify(executions.body)).not.toContain(refreshToken);
  });
});
