/**
 * The one list of secret field names and the three places that derive from it: the service's log lines, captured
 * tool inputs and the sandbox's request records. Every name of the list is hidden in each of them, including the
 * names only one of the former three lists had (`state` was not masked in records, `code_verifier` not in logs nor
 * in captured inputs, `password` not in records).
 */
import { describe, expect, it } from 'vitest';
import { redactInput } from '../../runtime/executions/redact-input.js';
import { SECRET_FIELDS, SECRET_HEADERS, isSecretField, isSecretLooking } from '../../runtime/secret-fields.js';
import { createServiceLogger } from '../../runtime/service/logging.js';
import { RequestRecorder } from '../../sandbox/core/recorder.js';

const VALUE = 'value-that-must-not-show';

describe('the list of secret field names', () => {
  it('holds every name the logger, the input capture and the sandbox recorder hid before they shared it', () => {
    const logger = ['authorization', 'cookie', 'set-cookie', 'client_secret', 'clientSecret', 'access_token', 'accessToken', 'refresh_token', 'refreshToken', 'code', 'state', 'password', 'token'];
    const recorder = ['client_secret', 'client_assertion', 'assertion', 'code', 'code_verifier', 'access_token', 'refresh_token', 'id_token', 'token', 'cookie', 'proxy-authorization', 'x-api-key'];
    const inputWords = ['secret', 'password', 'passwd', 'token', 'authorization', 'api_key', 'cookie', 'credential', 'private_key'];
    expect(SECRET_FIELDS).toEqual(expect.arrayContaining([...logger, ...recorder, ...inputWords]));
    expect(SECRET_FIELDS).toEqual(expect.arrayContaining([...SECRET_HEADERS]));
    expect(new Set(SECRET_FIELDS).size).toBe(SECRET_FIELDS.length);
  });

  it('matches exactly, or by a secret word for names callers choose', () => {
    expect(isSecretField('code_verifier')).toBe(true);
    expect(isSecretField('db_password')).toBe(false);
    for (const name of ['db_password', 'X-Api-Key', 'privateKey', 'pageToken', 'state', 'client_assertion']) expect(isSecretLooking(name)).toBe(true);
    for (const name of ['firstname', 'statement', 'postcode', 'page_size']) expect(isSecretLooking(name)).toBe(false);
  });
});

describe.each(SECRET_FIELDS)('%s', (name) => {
  it('is redacted in a log line, at the top level and one level down', () => {
    const lines: string[] = [];
    const logger = createServiceLogger({ write: (line: string) => void lines.push(line) });
    logger.info({ [name]: VALUE, detail: { [name]: VALUE, kept: 'visible' } }, 'a line');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line[name]).toBe('[redacted]');
    expect(line.detail).toEqual({ [name]: '[redacted]', kept: 'visible' });
    expect(lines[0]).not.toContain(VALUE);
  });

  it('is redacted in a captured input, at any depth', () => {
    const input = { [name]: VALUE, items: [{ nested: { [name]: VALUE } }], firstname: 'Kim' };
    expect(redactInput(input, new Set())).toEqual({ [name]: '[redacted]', items: [{ nested: { [name]: '[redacted]' } }], firstname: 'Kim' });
  });

  it("is redacted in the sandbox's request records: body, query string and headers", () => {
    const recorder = new RequestRecorder();
    recorder.add({
      service: 'oauth:google',
      method: 'POST',
      path: '/token',
      query: { [name]: VALUE, prompt: 'consent' },
      headers: { [name]: `Bearer ${VALUE}`, accept: 'application/json' },
      body: { [name]: VALUE, grant_type: 'authorization_code' },
      status: 200,
      at: 0,
    });
    const [record] = recorder.all();
    expect(record?.query).toEqual({ [name]: '[redacted]', prompt: 'consent' });
    expect(record?.body).toEqual({ [name]: '[redacted]', grant_type: 'authorization_code' });
    // The Authorization header keeps its scheme, so a record shows how a client authenticated.
    expect(record?.headers).toEqual({ [name]: name === 'authorization' ? 'Bearer [redacted]' : '[redacted]', accept: 'application/json' });
  });
});
