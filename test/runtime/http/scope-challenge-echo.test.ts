// Google's refusal for a missing scope names the scopes in its WWW-Authenticate challenge, which the error repeats
// (message and details.required_scopes). An upstream that echoes the bearer token into that challenge must not get it
// into the caller's error, in any form the body's redaction covers.
import { describe, expect, it } from 'vitest';
import { upstreamError } from '../../../runtime/http/normalize.js';

const token = 'ya29.a0AfH6SMB/scope+challenge=secret0123456789';
const payload = {
  error: {
    code: 403,
    message: 'Request had insufficient authentication scopes.',
    status: 'PERMISSION_DENIED',
    details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com' }],
  },
};

describe('a scope challenge that echoes the token', () => {
  it.each([
    ['as is', token],
    ['URL-encoded', encodeURIComponent(token)],
    ['base64', Buffer.from(token).toString('base64')],
  ])('%s: not in the message or the required scopes', (_name, echoed) => {
    const header = `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/calendar ${echoed}"`;
    const error = upstreamError({ dialect: 'google', status: 403, headers: { 'www-authenticate': header }, body: Buffer.from(JSON.stringify(payload)), secrets: [token] });
    expect(error.code).toBe('insufficient_scope');
    expect((error.details as { required_scopes: string[] }).required_scopes[0]).toBe('https://www.googleapis.com/auth/calendar');
    const shown = JSON.stringify(error.toJSON()) + error.message;
    expect(shown).not.toContain(echoed.slice(4, -4));
  });
});
