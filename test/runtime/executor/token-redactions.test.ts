/**
 * The executor's redactions are built once per token set, not once per call, and a token set keeps its own: a new
 * set (a refresh, a re-read) is scrubbed of its own token, never with an older set's pattern.
 */
import { describe, expect, it } from 'vitest';
import { TokenRedactions } from '../../../runtime/executor/token-redactions.js';
import type { TokenSet } from '../../../runtime/store/types.js';

const set = (accessToken: string, refreshToken: string | null = null): TokenSet => ({ accessToken, refreshToken, expiresAt: null, tokenType: 'Bearer', scopes: [] });
const echo = (...tokens: string[]) => ({ debug: tokens.map((t) => `Bearer ${t}`), sent: tokens.map((t) => Buffer.from(t).toString('base64')) });

describe('TokenRedactions', () => {
  it('builds a token set\'s redaction once and hands the same one to every later call', () => {
    const redactions = new TokenRedactions();
    const tokens = set('access-token-one-0123456789', 'refresh-token-one-0123456789');
    const first = redactions.accessToken(tokens);
    expect(redactions.accessToken(tokens)).toBe(first);
    expect(redactions.accessAndRefreshTokens(tokens)).toBe(redactions.accessAndRefreshTokens(tokens));
    expect(first.apply(echo('access-token-one-0123456789'))).toEqual({ debug: ['Bearer [redacted]'], sent: ['[redacted]'] });
  });

  it('scrubs a new token set (a refresh) of its own token, and the access redaction leaves the refresh token to the proxy\'s', () => {
    const redactions = new TokenRedactions();
    const before = set('access-token-old-0123456789', 'refresh-token-0123456789');
    const after = set('access-token-new-0123456789', 'refresh-token-0123456789');
    redactions.accessToken(before);
    expect(redactions.accessToken(after).apply(echo('access-token-new-0123456789'))).toEqual({ debug: ['Bearer [redacted]'], sent: ['[redacted]'] });
    expect(redactions.accessToken(after).apply('refresh-token-0123456789')).toBe('refresh-token-0123456789');
    expect(redactions.accessAndRefreshTokens(after).apply(echo('access-token-new-0123456789', 'refresh-token-0123456789'))).toEqual({
      debug: ['Bearer [redacted]', 'Bearer [redacted]'],
      sent: ['[redacted]', '[redacted]'],
    });
  });

  it('a set without a refresh token, or with a token under 8 characters, is handled as redact() handles it', () => {
    const redactions = new TokenRedactions();
    expect(redactions.accessAndRefreshTokens(set('access-token-0123456789')).apply('x access-token-0123456789 y')).toBe('x [redacted] y');
    expect(redactions.accessToken(set('short')).apply('a short answer')).toBe('a short answer');
  });
});
