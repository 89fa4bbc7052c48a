// A provider (or an upstream a connection's overrides name) may echo the call's token not only verbatim but in the
// forms it passed through: JSON-escaped inside a JSON string (`\/` for `/`), URL-encoded in a quoted URL or form body,
// base64 in a quoted Basic header or a debug dump. Each form is the token to whoever reads the error body.
import { describe, expect, it } from 'vitest';
import { redact, upstreamError } from '../../../runtime/http/normalize.js';

// Shaped like a Google refresh token: slashes, and base64-ish characters that URL and JSON encodings change.
const token = '1//0gSecretRefresh+Token/with=Chars_abcdefghijklmnop';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

const forms: Array<[string, string]> = [
  ['JSON-escaped slashes in a text body', JSON.stringify(token).replace(/\//g, '\\/')],
  ['URL-encoded', encodeURIComponent(token)],
  ['URL-encoded with lowercase hex', encodeURIComponent(token).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['URL-encoded twice', encodeURIComponent(encodeURIComponent(token))],
  ['base64 of the token', b64(token)],
  ['base64 inside a Basic credential (offset 1)', b64(`x:${token}`)],
  ['base64 inside a Basic credential (offset 2)', b64(`xy:${token}`)],
  ['base64url (offset 0)', b64url(token)],
  ['base64url (offset 1)', b64url(`:${token}`)],
];

/** Whether any 12 consecutive characters of an encoded form of the token survive in `shown`. */
function leaks(shown: string, form: string): string | undefined {
  for (let i = 0; i + 12 <= form.length; i++) {
    const piece = form.slice(i, i + 12);
    // Skip pieces of the surrounding text, not of the token's encoding.
    if (shown.includes(piece) && !'x:xy:'.includes(piece)) return piece;
  }
  return undefined;
}

describe('an echoed token in an encoded form is redacted from the error', () => {
  it.each(forms)('%s, in a text body', (_name, form) => {
    const error = upstreamError({ dialect: 'google', status: 400, headers: {}, body: Buffer.from(`bad request: ${form} end`), secrets: [token] });
    const shown = JSON.stringify(error.toJSON()) + error.message;
    expect(leaks(shown, form)).toBeUndefined();
  });

  it.each(forms)('%s, inside a JSON string nested in the JSON body', (_name, form) => {
    const inner = `{"request":{"headers":{"authorization":"${form}"}}}`;
    const error = upstreamError({ dialect: 'google', status: 400, headers: {}, body: Buffer.from(JSON.stringify({ error: { message: `debug: ${inner}` } })), secrets: [token] });
    const shown = JSON.stringify(error.toJSON()) + error.message;
    expect(leaks(shown, form)).toBeUndefined();
  });

  it('a JSON string that double-encodes the token (JSON text inside JSON text) is redacted', () => {
    const twice = JSON.stringify(JSON.stringify({ token }).replace(/\//g, '\\/'));
    const error = upstreamError({ dialect: 'notion', status: 400, headers: {}, body: Buffer.from(`{"message":${JSON.stringify(`echo ${twice}`)}}`), secrets: [token] });
    expect(JSON.stringify(error.toJSON())).not.toContain('0gSecretRefresh');
  });

  it('leaves text that does not hold the token alone', () => {
    const value = { message: 'Invalid value for industry: SOFTWARE', list: ['a', 'b'], n: 1 };
    expect(redact(value, [token])).toEqual(value);
  });
});

describe('redact', () => {
  it('hands back the very value when nothing matched, and copies only the path to what changed', () => {
    const value = JSON.parse(`{"id":"1","properties":{"email":"a@example.com","tags":["x","y"]},"debug":{"sent":["ok","Bearer ${token}"],"at":{"n":1}},"list":[{"a":1},{"b":2}]}`) as Record<string, any>;
    const clean = { ...value, debug: { sent: ['ok'], at: { n: 1 } } };
    expect(redact(clean, [token])).toBe(clean);
    const out = redact(value, [token]) as Record<string, any>;
    expect(out).toEqual({ ...value, debug: { sent: ['ok', 'Bearer [redacted]'], at: { n: 1 } } });
    expect(value.debug.sent[1]).toBe(`Bearer ${token}`);
    expect(out).not.toBe(value);
    expect(out.debug).not.toBe(value.debug);
    expect(out.debug.sent).not.toBe(value.debug.sent);
    expect(out.properties).toBe(value.properties);
    expect(out.debug.at).toBe(value.debug.at);
    expect(out.list).toBe(value.list);
    expect(Object.keys(out)).toEqual(['id', 'properties', 'debug', 'list']);
  });

  it('a key holding the token is replaced in place, the object\'s order kept', () => {
    const value = { first: 1, [`k-${token}`]: 'v', last: [2] };
    const out = redact(value, [token]);
    expect(Object.entries(out)).toEqual([['first', 1], ['k-[redacted]', 'v'], ['last', [2]]]);
    expect(out.last).toBe(value.last);
  });

  it('keeps a key named __proto__ as the own key JSON.parse made it, not as the copy\'s prototype', () => {
    const parsed = JSON.parse(`{"__proto__": {"polluted": "${token}"}, "a": 1}`) as Record<string, unknown>;
    const out = redact(parsed, [token]);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"[redacted]"},"a":1}');
  });

  it('a key named __proto__ before the one that changed is kept as an own key, as it was', () => {
    const parsed = JSON.parse(`{"__proto__": {"x": 1}, "a": "${token}"}`) as Record<string, unknown>;
    const out = redact(parsed, [token]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe(Object.getOwnPropertyDescriptor(parsed, '__proto__')?.value);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":1},"a":"[redacted]"}');
  });
});
