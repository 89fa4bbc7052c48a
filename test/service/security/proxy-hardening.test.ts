/**
 * Security review, proxy (issue 14, items 5, 8, 12, 13) and tool error bodies (item 16), through the running service
 * against an upstream of our own:
 * - 8: an upstream that echoes the user's provider tokens (access and refresh) in its body and headers does not
 *   hand them to the caller;
 * - 12: the caller's JSON body reaches the upstream byte for byte (no re-serialization);
 * - 5: a body nested past the limit is a 400, in-process as over HTTP;
 * - 13: forwarding-style headers, values beyond Latin-1 and disguised dot segments are refused before anything is sent;
 * - 16: a tool call's error body keeps no part of the token an upstream echoes where the text body is cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../runtime/json/untrusted-json.js';
import { startHarness, type Harness } from '../harness.js';
import { connectThrough, startUpstream, type Upstream } from './helpers.js';

let h: Harness;
let upstream: Upstream;
let connectionName: string;
let token: string;
beforeAll(async () => {
  h = await startHarness({ rateLimit: false });
  upstream = await startUpstream();
  connectionName = (await connectThrough(h, h.a, upstream.url, 'echo-user')).name;
  token = await h.token(h.a);
});
afterAll(async () => {
  await h?.close();
  await upstream?.close();
});

const proxy = (body: Record<string, unknown>) => h.call('POST', '/api/v1/proxy', { token, body: { connection_name: connectionName, identifier: 'echo-user', ...body } });

describe('proxy answers are scrubbed of the user provider tokens (item 8)', () => {
  it('removes the access and refresh token an upstream echoes in its body and headers', async () => {
    const account = (await h.connector.environment(h.a.environmentId).listAccounts({ identifier: 'echo-user' }))[0]!;
    const stored = await h.connector.store.getAccount(h.a.environmentId, account.id);
    const refreshToken = stored!.tokens!.refreshToken!;
    expect(refreshToken.length).toBeGreaterThan(8);
    upstream.respond = (req, res) => {
      const bearer = String(req.headers.authorization).replace(/^Bearer /, '');
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': bearer, 'x-refresh': `rt=${refreshToken}` });
      res.end(JSON.stringify({ you_sent: req.headers.authorization, nested: [{ token: bearer }], refresh: refreshToken, [bearer]: 'as a key' }));
    };
    const res = await proxy({ method: 'GET', path: '/echo' });
    expect(res.status).toBe(200);
    const bearer = String(upstream.received.at(-1)!.headers.authorization).replace(/^Bearer /, '');
    const answer = JSON.stringify(res.body);
    expect(answer).not.toContain(bearer);
    expect(answer).not.toContain(refreshToken);
    expect(answer).toContain('[redacted]');
    expect(res.body.body.you_sent).toBe('Bearer [redacted]');
    expect(res.body.headers['x-echo']).toBe('[redacted]');
    expect(res.body.headers['x-refresh']).toBe('rt=[redacted]');

    upstream.respond = (req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`debug: ${req.headers.authorization}`);
    };
    const text = await proxy({ method: 'GET', path: '/echo' });
    expect(text.body.status).toBe(500);
    expect(text.body.body).toBe('debug: Bearer [redacted]');
  });
});

describe('tool error bodies are scrubbed of the token before they are cut (item 16)', () => {
  it('leaves no part of the token an upstream echoes across the 2,000-character cut of a text body', async () => {
    upstream.respond = (req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(`${'e'.repeat(1_990)}${String(req.headers.authorization).replace(/^Bearer /, '')} and more`);
    };
    const res = await h.call('POST', '/api/v1/execute_tool', {
      token,
      body: { tool_name: 'calendar_list_calendars', connection_name: connectionName, identifier: 'echo-user', tool_input: {} },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('upstream_error');
    const bearer = String(upstream.received.at(-1)!.headers.authorization).replace(/^Bearer /, '');
    expect(bearer.length).toBeGreaterThan(10);
    expect(JSON.stringify(res.body)).not.toContain(bearer.slice(0, 10));
    expect(res.body.error.details.body).toBe(`${'e'.repeat(1_990)}[redacted]...`);
  });
});

describe('the JSON body is forwarded as sent (item 12)', () => {
  it('keeps big integers, out-of-range numbers, escapes, key order and spacing', async () => {
    upstream.respond = (_req, res) => {
      res.writeHead(204);
      res.end();
    };
    const body = '{ "n": 9007199254740993, "big": 1e309, "s": "caf\\u00e9", "z": 1, "a": [1.0, -0] }';
    const raw = `{"connection_name":${JSON.stringify(connectionName)},"identifier":"echo-user","method":"POST","path":"/items","body":${body}}`;
    const res = await h.call('POST', '/api/v1/proxy', { token, body: raw });
    expect(res.status).toBe(200);
    const sent = upstream.received.at(-1)!;
    expect(sent.body.toString('utf8')).toBe(body);
    expect(sent.headers['content-type']).toBe('application/json');
  });
});

describe('depth limit on proxy bodies (item 5)', () => {
  const nested = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);

  it('answers 400 over HTTP for a body 5,000 levels deep, and sends nothing', async () => {
    const before = upstream.received.length;
    const raw = `{"connection_name":${JSON.stringify(connectionName)},"identifier":"echo-user","method":"POST","path":"/items","body":${nested(5000)}}`;
    const res = await h.call('POST', '/api/v1/proxy', { token, body: raw });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(upstream.received.length).toBe(before);
  });

  it('refuses an in-process body nested past the limit instead of overflowing the stack', async () => {
    let deep: unknown = [];
    for (let i = 0; i < 5000; i++) deep = [deep];
    const env = h.connector.environment(h.a.environmentId);
    await expect(env.proxy({ connection_name: connectionName, identifier: 'echo-user', method: 'POST', path: '/items', body: deep })).rejects.toMatchObject({
      code: 'invalid_proxy_request',
      details: { violations: [{ pointer: '/body', keyword: 'depth' }] },
    });
  });
});

describe('forwarding headers, non-Latin-1 values and disguised dot segments (item 13)', () => {
  it.each(['X-Original-URL', 'X-Rewrite-URL', 'X-Client-IP', 'True-Client-IP', 'CF-Connecting-IP', 'X-Cluster-Client-IP', 'X-Host'])('refuses %s', async (name) => {
    const before = upstream.received.length;
    const res = await proxy({ method: 'GET', path: '/x', headers: { [name]: '/admin' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_proxy_request');
    expect(res.body.error.details.violations[0].keyword).toBe('forbidden_header');
    expect(upstream.received.length).toBe(before);
  });

  it('answers 400, not 502, for a header value beyond Latin-1', async () => {
    const res = await proxy({ method: 'GET', path: '/x', headers: { 'x-note': 'snowman \u2603' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_proxy_request');
    expect(res.body.error.details.violations[0]).toMatchObject({ pointer: '/headers/x-note', keyword: 'header_value' });
    // Latin-1 itself still goes through.
    expect((await proxy({ method: 'GET', path: '/x', headers: { 'x-note': 'caf\u00e9' } })).status).toBe(200);
  });

  it.each(['/a/..;/admin', '/a/%20../admin', '/a/..%20/admin', '/a/%2e%2e;x/admin', '/a/..%EF%BC%8Fadmin', '/a%EF%BC%8F..%EF%BC%8Fadmin', '/a/%EF%BC%8E%EF%BC%8E;/admin'])(
    'refuses the path %s like a dot segment',
    async (path) => {
      const before = upstream.received.length;
      const res = await proxy({ method: 'GET', path });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_proxy_request');
      expect(res.body.error.details.violations[0].pointer).toBe('/path');
      expect(upstream.received.length).toBe(before);
    },
  );

  it('still forwards ordinary segments with dots and semicolons', async () => {
    upstream.respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    };
    expect((await proxy({ method: 'GET', path: '/files/v1.2/a;b/..x/x..' })).status).toBe(200);
  });
});
