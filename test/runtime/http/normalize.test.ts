import { describe, expect, it } from 'vitest';
import { upstreamError } from '../../../runtime/http/normalize.js';
import { parseRetryAfter } from '../../../runtime/http/retry.js';

const body = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));

describe('upstreamError', () => {
  it.each([
    ['notion', 404, { object: 'error', status: 404, code: 'object_not_found', message: 'Could not find page' }, 'Could not find page'],
    ['google', 400, { error: { code: 400, message: 'Invalid range', status: 'INVALID_ARGUMENT' } }, 'Invalid range'],
    ['hubspot', 409, { status: 'error', message: 'Contact already exists. Existing ID: 1', category: 'CONFLICT' }, 'Contact already exists'],
  ] as const)('%s %i -> upstream_error with status and body', (dialect, status, payload, text) => {
    const error = upstreamError({ dialect, status, headers: {}, body: body(payload), secrets: [] });
    expect(error.code).toBe('upstream_error');
    expect(error.message).toContain(text);
    expect(error.details).toEqual({ status, body: payload });
  });

  it('429 -> upstream_rate_limited with Retry-After', () => {
    const error = upstreamError({ dialect: 'notion', status: 429, headers: { 'retry-after': '12' }, body: body({ code: 'rate_limited' }), secrets: [] });
    expect(error.code).toBe('upstream_rate_limited');
    expect(error.retryAfterSeconds).toBe(12);
  });

  it('Google 403 usageLimits is a rate limit too', () => {
    const payload = { error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ domain: 'usageLimits', reason: 'userRateLimitExceeded' }] } };
    expect(upstreamError({ dialect: 'google', status: 403, headers: {}, body: body(payload), secrets: [] }).code).toBe('upstream_rate_limited');
    const forbidden = { error: { code: 403, message: 'nope', errors: [{ reason: 'forbiddenForNonOrganizer' }] } };
    expect(upstreamError({ dialect: 'google', status: 403, headers: {}, body: body(forbidden), secrets: [] }).code).toBe('upstream_error');
  });

  it('redacts the call\'s token wherever the upstream echoes it', () => {
    const token = 'ya29.a0AfH6SMBsecretsecret';
    const error = upstreamError({ dialect: 'google', status: 400, headers: {}, body: body({ error: { message: `bad token ${token}` } }), secrets: [token] });
    expect(JSON.stringify(error.toJSON())).not.toContain(token);
    expect(error.message).not.toContain(token);
  });

  it('keeps a non-JSON body as bounded text', () => {
    const error = upstreamError({ dialect: 'hubspot', status: 502, headers: {}, body: Buffer.from('<html>'.repeat(1000)), secrets: [] });
    expect((error.details as { body: string }).body.length).toBeLessThan(2_100);
  });
});

describe('parseRetryAfter', () => {
  it('parses seconds and dates, ignores garbage', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 00:00:10 GMT', Date.parse('2026-03-01T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 00:00:10 GMT', Date.parse('2026-03-02T00:00:00Z'))).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter('-1')).toBeUndefined();
  });
});
