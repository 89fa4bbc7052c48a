/**
 * A proxy body given as a string with its Content-Type (a form, or JSON text) is sent as it is; with input capture on,
 * the execution history kept that string whole, so a secret-looking field in it (`client_secret`, `refresh_token`),
 * which the same body given as an object has redacted, was stored and shown in plaintext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crmUser, startHarness, type Harness } from '../harness.js';

let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness({ executions: { captureInputs: true } });
  ({ token } = await crmUser(h, 'former', 'former@example.com'));
});
afterAll(() => h?.close());

const secret = 'captured-refresh-token-0123456789abcdef';

async function capturedBody(contentType: string, body: string): Promise<unknown> {
  const res = await h.call('POST', '/api/v1/proxy', { token, body: { connection_name: 'crm', identifier: 'former', method: 'POST', path: '/crm/v3/objects/contacts/search', headers: { 'content-type': contentType }, body } });
  expect(res.status).toBe(200);
  // The history is written in batches, a moment after the call; the newest record is this call's.
  await new Promise((r) => setTimeout(r, 150));
  const listed = await h.call('GET', '/api/v1/executions?identifier=former&limit=1', { token });
  return (listed.body.executions as Array<{ operation: string; input: { body: unknown } }>)[0]?.input.body;
}

describe('a proxy body given as a string is captured with its secret fields redacted', () => {
  it('a form body', async () => {
    const body = await capturedBody('application/x-www-form-urlencoded', `grant_type=refresh_token&refresh_token=${secret}&client_secret=${secret}&limit=1`);
    expect(JSON.stringify(body)).not.toContain(secret);
    expect(body).toEqual({ grant_type: 'refresh_token', refresh_token: '[redacted]', client_secret: '[redacted]', limit: '1' });
  });

  it('JSON text', async () => {
    const body = await capturedBody('application/json; charset=utf-8', JSON.stringify({ refresh_token: secret, filterGroups: [] }));
    expect(JSON.stringify(body)).not.toContain(secret);
    expect(body).toEqual({ refresh_token: '[redacted]', filterGroups: [] });
  });

  it('text of another type, which has no field names to redact by, is kept as [redacted]', async () => {
    expect(await capturedBody('text/plain', `refresh_token: ${secret}`)).toBe('[redacted]');
  });
});
