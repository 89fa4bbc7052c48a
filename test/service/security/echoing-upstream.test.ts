/**
 * An upstream that echoes every secret it is sent, in every form it could pass one through: a tool call's API answer
 * (a refusal) and a proxied answer (a success and a refusal, in headers and body), and a token endpoint refusing a
 * refresh with the refresh token and client secret it got. The provider's access token, refresh token and the
 * connection's client secret must not reach the caller's answer, a log line (at trace), a span, the execution history
 * (inputs captured, and each failure's message) or the store's bytes, verbatim or encoded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { context, trace } from '@opentelemetry/api';
import { node } from '@opentelemetry/sdk-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmUser, startHarness, type Harness } from '../harness.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.text += chunk.toString('utf8');
    done();
  }
}

const spans = new node.InMemorySpanExporter();
const logs = new Capture();
let h: Harness;
let token = '';
let upstream: http.Server;
/** Every secret the upstream was sent (bearer tokens, refresh tokens, client secrets). */
const received = new Set<string>();

/** The forms an echo may take: as is, JSON-escaped (`\/`), URL-encoded, base64 and base64url. */
function echoes(secret: string): Record<string, string> {
  return {
    plain: secret,
    json: JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
    url: encodeURIComponent(secret),
    base64: Buffer.from(secret).toString('base64'),
    base64url: Buffer.from(secret).toString('base64url'),
  };
}

/** Each of `secrets`, in any form, found in `text` (a 16-character run of any form is enough). */
function found(text: string, secrets: Iterable<string>): string[] {
  const hits: string[] = [];
  for (const secret of secrets) {
    for (const [form, value] of Object.entries(echoes(secret))) {
      // The middle of the form: its ends may be an alignment's leftover bytes beside a redacted base64 run.
      const core = value.length > 24 ? value.slice(4, -4) : value;
      if (text.includes(core)) hits.push(`${form} of ${secret.slice(0, 6)}…`);
    }
  }
  return hits;
}

function echoBody(secrets: string[]): string {
  const nested = JSON.stringify({ request: { headers: Object.fromEntries(secrets.map((s, i) => [`h${i}`, `Bearer ${s}`])) } }).replace(/\//g, '\\/');
  return JSON.stringify({
    status: 'error',
    category: 'VALIDATION_ERROR',
    message: `bad request ${secrets.join(' ')} debug=${nested}`,
    context: secrets.flatMap((s) => Object.values(echoes(s))),
  });
}

beforeAll(async () => {
  new node.NodeTracerProvider({ spanProcessors: [new node.SimpleSpanProcessor(spans)] }).register();
  upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const secrets: string[] = [];
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer) secrets.push(bearer);
      if (req.url?.startsWith('/token')) {
        for (const [key, value] of new URLSearchParams(body)) if (key === 'refresh_token' || key === 'client_secret') secrets.push(value);
        for (const s of secrets) received.add(s);
        res.writeHead(400, { 'content-type': 'application/json', 'www-authenticate': `Basic realm="${secrets.join(' ')}"` });
        return void res.end(JSON.stringify({ error: 'invalid_request', error_description: `refresh ${secrets.join(' ')} ${body}`, ...Object.fromEntries(secrets.map((s, i) => [`e${i}`, echoes(s)])) }));
      }
      for (const s of secrets) received.add(s);
      const status = /\/401(\?|$)/.test(req.url ?? '') ? 401 : /\/ok|\/200(\?|$)/.test(req.url ?? '') ? 200 : 400;
      res.writeHead(status, {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", token="${bearer}"`,
        'set-cookie': `session=${bearer}; HttpOnly`,
        location: `https://example.com/cb?access_token=${encodeURIComponent(bearer ?? '')}`,
        'x-debug-auth': Buffer.from(`Bearer ${bearer}`).toString('base64'),
        link: `<https://example.com/next?t=${encodeURIComponent(bearer ?? '')}>; rel="next"`,
      });
      res.end(echoBody(secrets));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  h = await startHarness({ logStream: logs, logLevel: 'trace', executions: { captureInputs: true } });
  ({ token } = await crmUser(h, 'echoed', 'echoed@example.com'));
  const endpoints = h.sandbox.endpoints('crm');
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const patched = await h.call('PATCH', '/api/v1/connections/crm', { token, body: { overrides: { ...endpoints, apiBaseUrl: base, tokenUrl: `${base}/token` } } });
  expect(patched.status).toBe(200);
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  trace.disable();
  context.disable();
});

const answers: string[] = [];
async function call(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await h.call('POST', path, { token, body });
  answers.push(JSON.stringify({ status: res.status, headers: Object.fromEntries(res.headers), body: res.body }));
  return res;
}

describe('an upstream that echoes the secrets it is sent', () => {
  it('a refused tool call: the error body holds the provider\'s answer without the token', async () => {
    const res = await call('/api/v1/execute_tool', { tool_name: 'crm_contact_get', identifier: 'echoed', tool_input: { contact_id: '1' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upstream_error');
    expect(JSON.stringify(res.body)).toContain('[redacted]');
    expect(received.size).toBeGreaterThan(0);
    expect(found(answers.join('\n'), received)).toEqual([]);
  });

  it('a tool call answered 200: the data holds the provider\'s answer without the token', async () => {
    const res = await call('/api/v1/execute_tool', { tool_name: 'crm_contact_get', identifier: 'echoed', tool_input: { contact_id: '200' } });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body.data)).toContain('[redacted]');
    expect(found(answers.join('\n'), received)).toEqual([]);
  });

  it('a proxied success and refusal: headers and body without the token, no Set-Cookie', async () => {
    const ok = await call('/api/v1/proxy', { connection_name: 'crm', identifier: 'echoed', method: 'GET', path: '/ok' });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe(200);
    expect(Object.keys(ok.body.headers)).not.toContain('set-cookie');
    const refused = await call('/api/v1/proxy', { connection_name: 'crm', identifier: 'echoed', method: 'GET', path: '/bad', query: { note: 'x' } });
    expect(refused.body.status).toBe(400);
    expect(found(answers.join('\n'), received)).toEqual([]);
  });

  it('a refresh the token endpoint refuses, echoing the refresh token and client secret: none of them anywhere', async () => {
    const res = await call('/api/v1/execute_tool', { tool_name: 'crm_contact_get', identifier: 'echoed', tool_input: { contact_id: '401' } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    // The token endpoint was asked and got the refresh token and the client secret (HubSpot's are in the form body).
    expect(received.size).toBeGreaterThanOrEqual(3);
    expect(found(answers.join('\n'), received)).toEqual([]);
  });

  it('nothing it echoed is in a log line, a span, the execution history or the store', async () => {
    // The history is written in batches, a moment after each call.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const history = await h.call('GET', '/api/v1/executions?identifier=echoed&limit=50', { token });
    expect(history.body.executions.length).toBeGreaterThanOrEqual(4);
    const one = await h.call('GET', `/api/v1/executions/${history.body.executions[0].id}`, { token });
    const spanText = JSON.stringify(spans.getFinishedSpans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })));
    const storeBytes = readdirSync(h.dataDir).map((f) => readFileSync(join(h.dataDir, f)).toString('latin1')).join('\n');
    // Each failed call's record keeps the message its caller got: the provider's own words, which quoted the token,
    // with the token (in every form) as `[redacted]`.
    const messages = (history.body.executions as { outcome: string; error_message: string | null }[]).filter((e) => e.outcome === 'error').map((e) => e.error_message);
    expect(messages.length).toBeGreaterThanOrEqual(2);
    expect(messages.every((m) => typeof m === 'string' && m !== '')).toBe(true);
    expect(messages.some((m) => m!.includes('bad request [redacted]'))).toBe(true);
    expect(found(messages.join('\n'), received)).toEqual([]);
    expect(logs.text.length).toBeGreaterThan(0);
    expect(spans.getFinishedSpans().length).toBeGreaterThan(0);
    expect({
      logs: found(logs.text, received),
      spans: found(spanText, received),
      history: found(JSON.stringify(history.body) + JSON.stringify(one.body), received),
      store: found(storeBytes, received),
    }).toEqual({ logs: [], spans: [], history: [], store: [] });
  });
});
