/**
 * An upstream that refuses the account's first token (401), takes the refreshed one, and echoes it in its answer:
 * the answer must be scrubbed of the token the retry used, not only of the one the call started with. The executor
 * keeps a redaction per token set (`executor/token-redactions.ts`): the retry's answer needs the refreshed set's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmUser, startHarness, type Harness } from '../harness.js';

let h: Harness;
let token = '';
let upstream: http.Server;
/** The access tokens the token endpoint handed out, in order. */
const minted: string[] = [];
/** Every bearer token the API was sent. */
const sent = new Set<string>();

const forms = (secret: string): string[] => [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64'), Buffer.from(secret).toString('base64url')];

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/token')) {
        const access = `refreshed-${minted.length}-${'x'.repeat(24)}/+=`;
        minted.push(access);
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify({ access_token: access, refresh_token: 'refresh-token-kept-0123456789', expires_in: 1800, token_type: 'bearer' }));
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      sent.add(bearer);
      // Only the latest token minted here is taken: the account's first one is refused once.
      if (bearer !== minted.at(-1)) {
        res.writeHead(401, { 'content-type': 'application/json' });
        return void res.end('{"status":"error","category":"INVALID_AUTHENTICATION"}');
      }
      res.writeHead(200, { 'content-type': 'application/json', 'x-echo': bearer });
      res.end(JSON.stringify({ id: '1', properties: { email: 'e@example.com' }, debug: forms(bearer) }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  h = await startHarness();
  ({ token } = await crmUser(h, 'refreshed', 'refreshed@example.com'));
  const base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const patched = await h.call('PATCH', '/api/v1/connections/crm', { token, body: { overrides: { ...h.sandbox.endpoints('crm'), apiBaseUrl: base, tokenUrl: `${base}/token` } } });
  expect(patched.status).toBe(200);
});

afterAll(async () => {
  await h?.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

/** Any form of any token the API was sent, found in `text`. */
const leaked = (text: string): string[] => [...sent].flatMap((secret) => forms(secret).filter((form) => text.includes(form)));

describe('an answer echoing the token a refresh after a 401 brought', () => {
  it('a tool call: data is scrubbed of the refreshed token', async () => {
    const res = await h.call('POST', '/api/v1/execute_tool', { token, body: { tool_name: 'crm_contact_get', identifier: 'refreshed', tool_input: { contact_id: '1' } } });
    expect(res.status).toBe(200);
    expect(minted.length).toBe(1);
    expect(res.body.data.debug).toEqual(['[redacted]', '[redacted]', '[redacted]', '[redacted]']);
    expect(leaked(JSON.stringify(res.body))).toEqual([]);
  });

  it('a proxied request: body and headers are scrubbed of the refreshed token', async () => {
    // The next refusal makes the account's current token stale: the proxy's retry uses a second refreshed one.
    minted.push(`not-handed-out-${'y'.repeat(24)}`);
    const res = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'refreshed', method: 'GET', path: '/crm/v3/objects/contacts/1' } });
    expect(res.status).toBe(200);
    expect(minted.length).toBe(3);
    expect(res.body.body.debug).toEqual(['[redacted]', '[redacted]', '[redacted]', '[redacted]']);
    expect(res.body.headers['x-echo']).toBe('[redacted]');
    expect(leaked(JSON.stringify(res.body))).toEqual([]);
  });
});
