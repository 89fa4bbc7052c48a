import { describe, expect, it } from 'vitest';
import { upstreamError } from '../../../runtime/http/normalize.js';
import { dialectCodes } from '../../../runtime/http/dialect-codes.js';
import type { ErrorDialect } from '../../../runtime/types.js';
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
    // A provider's 4xx keeps its status: clients and agent frameworks retry a 502, never a 404 or a 409.
    expect(error.status).toBe(status);
  });

  it.each([
    [400, 400], [403, 403], [404, 404], [409, 409], [410, 410], [412, 412], [422, 422], [423, 423],
    [401, 502], [500, 502], [503, 502], [504, 502],
  ] as const)('upstream %i -> service %i', (upstream, service) => {
    const error = upstreamError({ dialect: 'google', status: upstream, headers: {}, body: body({ error: { code: upstream, message: 'x' } }), secrets: [] });
    expect([error.code, error.status, (error.details as { status: number }).status]).toEqual(['upstream_error', service, upstream]);
  });

  it('Google 403 insufficientPermissions -> insufficient_scope naming the scopes from WWW-Authenticate', () => {
    const payload = {
      error: {
        code: 403,
        message: 'Request had insufficient authentication scopes.',
        errors: [{ message: 'Insufficient Permission', domain: 'global', reason: 'insufficientPermissions' }],
        status: 'PERMISSION_DENIED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT', domain: 'googleapis.com' }],
      },
    };
    const header = 'Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/calendar https://www.googleapis.com/auth/calendar.events"';
    const error = upstreamError({ dialect: 'google', status: 403, headers: { 'www-authenticate': header }, body: body(payload), secrets: [], resource: 'POST /calendar/v3/calendars/primary/events' });
    expect([error.code, error.status]).toEqual(['insufficient_scope', 403]);
    expect(error.details).toMatchObject({
      status: 403,
      required_scopes: ['https://www.googleapis.com/auth/calendar', 'https://www.googleapis.com/auth/calendar.events'],
      resource: 'POST /calendar/v3/calendars/primary/events',
      required_scopes_all: false,
    });
    expect(error.message).toContain('one of the scopes https://www.googleapis.com/auth/calendar');
  });

  it('Google 403 in the Sheets/Docs shape (ErrorInfo only, no legacy errors[]) is insufficient_scope too', () => {
    const payload = { error: { code: 403, message: 'Request had insufficient authentication scopes.', status: 'PERMISSION_DENIED', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'ACCESS_TOKEN_SCOPE_INSUFFICIENT' }] } };
    const error = upstreamError({ dialect: 'google', status: 403, headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="https://www.googleapis.com/auth/spreadsheets"' }, body: body(payload), secrets: [] });
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toMatchObject({ required_scopes: ['https://www.googleapis.com/auth/spreadsheets'] });
  });

  it('HubSpot MISSING_SCOPES -> insufficient_scope with requiredGranularScopes', () => {
    const payload = {
      status: 'error',
      message: "This app hasn't been granted all required scopes to make this call.",
      category: 'MISSING_SCOPES',
      errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: ['crm.objects.deals.write'] } }],
    };
    const error = upstreamError({ dialect: 'hubspot', status: 403, headers: {}, body: body(payload), secrets: [] });
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toMatchObject({ required_scopes: ['crm.objects.deals.write'], required_scopes_all: false });
  });

  it('HubSpot MISSING_SCOPES saying "All of the following scopes are required." -> required_scopes_all, and the message says all', () => {
    // HubSpot's errors[].message says whether the scopes named are alternatives ("One or more of the following scopes
    // are required.", its object API guide's example) or all needed ("All of the following scopes are required.").
    const payload = {
      status: 'error',
      message: "This app hasn't been granted all required scopes to make this call.",
      category: 'MISSING_SCOPES',
      errors: [{ message: 'All of the following scopes are required.', context: { requiredGranularScopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'] } }],
    };
    const error = upstreamError({ dialect: 'hubspot', status: 403, headers: {}, body: body(payload), secrets: [], resource: 'GET /crm/v4/objects/contacts/1/associations/companies' });
    expect(error.code).toBe('insufficient_scope');
    expect(error.details).toMatchObject({ required_scopes: ['crm.objects.contacts.read', 'crm.objects.companies.read'], required_scopes_all: true });
    expect(error.message).toContain('all of the scopes crm.objects.contacts.read, crm.objects.companies.read');
    expect(error.message).not.toContain('one of the scopes');
  });

  it('Notion restricted_resource -> insufficient_scope naming the resource', () => {
    const payload = { object: 'error', status: 403, code: 'restricted_resource', message: 'Insufficient permissions for this endpoint.' };
    const error = upstreamError({ dialect: 'notion', status: 403, headers: {}, body: body(payload), secrets: [], resource: 'POST /v1/comments' });
    expect([error.code, error.status]).toEqual(['insufficient_scope', 403]);
    expect(error.details).toMatchObject({ resource: 'POST /v1/comments' });
    expect(error.details).not.toHaveProperty('required_scopes');
    expect(error.message).toContain('POST /v1/comments');
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

  it('redacts the token in a text body before cutting it, so none of it is left at the cut', () => {
    const token = 'ya29.a0AfH6SMBsecretsecret';
    const text = `${'e'.repeat(1_990)}${token} tail`;
    const error = upstreamError({ dialect: 'google', status: 400, headers: {}, body: Buffer.from(text), secrets: [token] });
    const shown = JSON.stringify(error.toJSON());
    expect(shown).not.toContain(token.slice(0, 6));
    expect((error.details as { body: string }).body).toBe(`${'e'.repeat(1_990)}[redacted]...`);
  });

  // A provider's own error bodies are a few KB. One that is not (a hostile or misconfigured upstream) is passed on as
  // cut text, its token still redacted, instead of whole into the caller's error body or a model's context, and a
  // deep one no longer overflows the walk that redacts it.
  it('passes on a JSON error body still over 16 KB with its strings clipped, or too deep, or with a prototype key, as cut text', () => {
    const token = 'ya29.a0AfH6SMBsecretsecret';
    const many = JSON.stringify({ error: { message: `bad ${token}`, errors: Array.from({ length: 2_000 }, (_, i) => ({ reason: `r${i}`, message: 'x'.repeat(20) })) } });
    const deep = `${'['.repeat(100_000)}"${token}"${']'.repeat(100_000)}`;
    const poisoned = `{"__proto__": {"admin": true}, "message": "${token}"}`;
    const beyondReading = JSON.stringify({ error: { message: `bad ${token}`, padding: 'x'.repeat(1_100_000) } });
    for (const text of [many, deep, poisoned, beyondReading]) {
      const error = upstreamError({ dialect: 'google', status: 400, headers: {}, body: Buffer.from(text), secrets: [token] });
      const shown = (error.details as { body: unknown }).body;
      expect(typeof shown).toBe('string');
      expect((shown as string).length).toBeLessThanOrEqual(2_003);
      expect(JSON.stringify(error.toJSON())).not.toContain(token.slice(0, 10));
    }
  });

  // HubSpot's refusal of an option lists every option in its message (over 16 KB for a contact's or company's industry).
  // Passed on as cut text, its code was lost with its JSON, so a hint matched on the code never fired.
  it('reads a JSON error body over 16 KB whole (code, message, hint), and passes it on with its long strings clipped', () => {
    const token = 'pat-na1-secretsecret';
    const options = Array.from({ length: 150 }, (_, i) => `label: "Industry ${i}"\nvalue: "INDUSTRY_${i}"\ndisplay_order: ${i}\ndouble_data: 0.0\nhidden: false\n`).join(', ');
    const message = `Property values were not valid: [{"isValid":false,"message":"Software was not one of the allowed options: [${options}]","error":"INVALID_OPTION","name":"industry"}] ${token}`;
    const payload = { status: 'error', message, correlationId: 'c0ffee', category: 'VALIDATION_ERROR', errors: [{ message: `Software was not one of the allowed options: [${options}]`, code: 'INVALID_OPTION', context: { propertyName: ['industry'] } }] };
    const raw = body(payload);
    expect(raw.length).toBeGreaterThan(16_384);
    const hints = [{ status: 400, code: 'INVALID_OPTION', hint: 'Send the option\'s internal value.' }];
    const error = upstreamError({ dialect: 'hubspot', status: 400, headers: {}, body: raw, secrets: [token], hints });
    expect(error.message).toMatch(/^The upstream API answered 400: Property values were not valid: .{0,300}…/s);
    expect((error.details as { hint?: string }).hint).toBe("Send the option's internal value.");
    const shown = (error.details as { body: typeof payload }).body;
    expect(shown).toMatchObject({ status: 'error', correlationId: 'c0ffee', category: 'VALIDATION_ERROR', errors: [{ code: 'INVALID_OPTION', context: { propertyName: ['industry'] } }] });
    expect(shown.message.length).toBeLessThanOrEqual(2_001);
    expect(shown.message.endsWith('…')).toBe(true);
    expect(shown.errors[0]!.message).toMatch(/^Software was not one of the allowed options: \[label: "Industry 0"/);
    expect(JSON.stringify(error.toJSON()).length).toBeLessThan(16_384);
    expect(JSON.stringify(error.toJSON())).not.toContain(token.slice(0, 10));
  });

  it('passes on a provider-sized JSON error body as JSON', () => {
    const payload = { status: 'error', category: 'VALIDATION_ERROR', message: 'x', errors: Array.from({ length: 50 }, (_, i) => ({ message: `option ${i}`, code: 'INVALID_OPTION' })) };
    const error = upstreamError({ dialect: 'hubspot', status: 400, headers: {}, body: body(payload), secrets: ['not-in-it-123'] });
    expect((error.details as { body: unknown }).body).toEqual(payload);
  });

  it('keeps a non-JSON body as bounded text', () => {
    const error = upstreamError({ dialect: 'hubspot', status: 502, headers: {}, body: Buffer.from('<html>'.repeat(1000)), secrets: [] });
    expect((error.details as { body: string }).body.length).toBeLessThan(2_100);
  });
});

describe('upstreamError with the tool\'s hints', () => {
  const hints = [
    { status: 404, code: 'object_not_found', hint: 'Share the page with the integration; workspace_search finds what is shared.' },
    { status: 400, code: 'INVALID_ARGUMENT', messageContains: 'unable to parse RANGE', hint: 'sheets_read_spreadsheet lists the sheet titles.' },
    { status: 400, code: 'PROPERTY_DOESNT_EXIST', hint: 'Use the property\'s internal name.' },
    { status: 409, hint: 'Update the existing record.' },
    { status: 500, hint: 'never for a rate limit.' },
  ];
  const notion404 = { object: 'error', status: 404, code: 'object_not_found', message: 'Could not find page with ID: abc.' };

  it('a matching refusal keeps its code and status, and carries the hint after its message and in details.hint', () => {
    const error = upstreamError({ dialect: 'notion', status: 404, headers: {}, body: body(notion404), secrets: [], resource: 'GET /v1/pages/abc', hints });
    expect([error.code, error.status]).toEqual(['upstream_error', 404]);
    expect(error.message).toBe('The upstream API answered 404 to GET /v1/pages/abc: Could not find page with ID: abc. Hint: Share the page with the integration; workspace_search finds what is shared.');
    expect(error.details).toEqual({ status: 404, body: notion404, hint: hints[0]!.hint });
    expect(error.toJSON().details).toMatchObject({ hint: hints[0]!.hint });
  });

  it('matches the code where each dialect puts it, and the text case-insensitively', () => {
    const sheets = { error: { code: 400, message: 'Unable to parse range: NoSuchSheet!A1:B2', status: 'INVALID_ARGUMENT' } };
    expect(upstreamError({ dialect: 'google', status: 400, headers: {}, body: body(sheets), secrets: [], hints }).details).toMatchObject({ hint: hints[1]!.hint });
    const hubspot = { status: 'error', message: 'Property values were not valid', category: 'VALIDATION_ERROR', errors: [{ message: 'Property "x" does not exist', code: 'PROPERTY_DOESNT_EXIST' }] };
    expect(upstreamError({ dialect: 'hubspot', status: 400, headers: {}, body: body(hubspot), secrets: [], hints }).details).toMatchObject({ hint: hints[2]!.hint });
    // A hint without a code matches any answer of its status, a text body included.
    expect(upstreamError({ dialect: 'hubspot', status: 409, headers: {}, body: Buffer.from('conflict'), secrets: [], hints }).message).toBe('The upstream API answered 409: conflict. Hint: Update the existing record.');
  });

  it('a refusal no hint matches is left as it is: another status, another code, a message without the text', () => {
    const cases: Array<[ErrorDialect, number, unknown]> = [
      ['notion', 400, { object: 'error', status: 400, code: 'validation_error', message: 'body failed validation' }],
      ['notion', 404, { object: 'error', status: 404, code: 'not_object_not_found', message: 'x' }],
      ['google', 400, { error: { code: 400, message: 'Invalid valueInputOption', status: 'INVALID_ARGUMENT' } }],
      ['google', 404, { error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } }],
    ];
    for (const [dialect, status, payload] of cases) {
      const error = upstreamError({ dialect, status, headers: {}, body: body(payload), secrets: [], hints });
      expect(error.details).toEqual({ status, body: payload });
      expect(error.message).not.toContain('Hint:');
    }
  });

  it('a long message is cut at a word break with an ellipsis, whole in details.body, and the hint follows it', () => {
    // Notion's validation answer lists one line per block type it expected (34 of them for an unknown type).
    const lines = Array.from({ length: 34 }, (_, i) => `body.children[0].type_${i} should be defined, instead was \`undefined\`.`);
    const payload = { object: 'error', status: 400, code: 'validation_error', message: `body failed validation. Fix one:\n${lines.join('\n')}` };
    const hint = 'Send a block type Notion has.';
    const error = upstreamError({ dialect: 'notion', status: 400, headers: {}, body: body(payload), secrets: [], hints: [{ status: 400, hint }] });
    const quoted = error.message.slice('The upstream API answered 400: '.length, -` Hint: ${hint}`.length);
    expect(quoted.endsWith('…')).toBe(true);
    expect(quoted.length).toBeLessThanOrEqual(301);
    // Every word quoted is one of the message's whole words: none is cut in two.
    const words = new Set(payload.message.split(/\s+/));
    for (const word of quoted.slice(0, -1).split(/\s+/)) expect(words).toContain(word);
    expect(error.message.endsWith(`… Hint: ${hint}`)).toBe(true);
    expect(error.details).toMatchObject({ body: payload });
    // A message up to the limit is quoted whole.
    const short = { ...payload, message: 'x '.repeat(150).trimEnd() };
    expect(upstreamError({ dialect: 'notion', status: 400, headers: {}, body: body(short), secrets: [] }).message).toBe(`The upstream API answered 400: ${short.message}`);
  });

  it('is only for upstream_error: a rate limit or a missing scope of the same status gets none', () => {
    const quota = { error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] } };
    const forbidden = [{ status: 403, hint: 'h' }];
    expect(upstreamError({ dialect: 'google', status: 403, headers: {}, body: body(quota), secrets: [], hints: forbidden }).details).not.toHaveProperty('hint');
    const scope = { object: 'error', status: 403, code: 'restricted_resource', message: 'no' };
    expect(upstreamError({ dialect: 'notion', status: 403, headers: {}, body: body(scope), secrets: [], hints: forbidden }).details).not.toHaveProperty('hint');
  });
});

describe('dialectCodes', () => {
  it('reads Google status, reasons and ErrorInfo reasons; Notion code; HubSpot category, subCategory and errors[].code', () => {
    expect(dialectCodes('google', { error: { status: 'NOT_FOUND', errors: [{ reason: 'notFound' }], details: [{ reason: 'X' }, 'junk'] } })).toEqual(['NOT_FOUND', 'notFound', 'X']);
    expect(dialectCodes('notion', { code: 'object_not_found' })).toEqual(['object_not_found']);
    expect(dialectCodes('hubspot', { category: 'VALIDATION_ERROR', subCategory: 'S', errors: [{ code: 'PROPERTY_DOESNT_EXIST' }, null] })).toEqual(['VALIDATION_ERROR', 'S', 'PROPERTY_DOESNT_EXIST']);
    expect(dialectCodes('google', 'text')).toEqual([]);
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
