/**
 * Security review, item 10: on PostgreSQL an identifier or a name with a NUL byte answered 500, and lone surrogates
 * collapsed to U+FFFD, so three different identifiers reached one account. Identifiers, names and ids are now checked
 * before any store call: 400 with a pointer, the same on SQLite and on PostgreSQL (from DATABASE_URL; `postgresSuite`
 * in test/runtime/store/harness.ts says what happens without it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../../runtime/store/open-store.js';
import type { Store } from '../../../runtime/store/types.js';
import { keyring1 } from '../../runtime/store/fixtures.js';
import { newPostgresDatabase, type TestDatabase } from '../../runtime/store/harness.js';
import { postgresSuite } from '../../server-suites.js';
import { startHarness, type Harness } from '../harness.js';

/** A lone surrogate cannot be written in a URL (percent-escapes are UTF-8); JSON bodies are where it can arrive. */
const inUrl = (value: string): string | null => {
  try {
    return encodeURIComponent(value);
  } catch {
    return null;
  }
};

const BAD: Array<[string, string]> = [
  ['a NUL byte', 'user\u0000x'],
  ['a control character', 'user\u001bx'],
  ['a C1 control', 'user\u0085x'],
  ['a lone high surrogate', 'user\ud800'],
  ['a lone low surrogate', 'user\udfff'],
];

function suite(storeFor: () => Promise<{ store?: Store; close(): Promise<void> }>): void {
  let h: Harness;
  let token: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const backing = await storeFor();
    cleanup = backing.close;
    h = await startHarness({ rateLimit: false, ...(backing.store ? { store: backing.store } : {}) });
    token = await h.token(h.a);
    await h.sandboxConnection(h.a, 'calendar', 'cal');
  });
  afterAll(async () => {
    await h?.close();
    await cleanup?.();
  });

  it.each(BAD)('refuses an identifier with %s (link, list, tool call, proxy) with 400', async (_label, identifier) => {
    const calls: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/connected_accounts/magic_link', { connection_name: 'cal', identifier }],
      ...(inUrl(identifier) === null ? [] : [['GET', `/api/v1/connected_accounts?identifier=${inUrl(identifier)}`, undefined] as [string, string, unknown]]),
      ['POST', '/api/v1/execute_tool', { tool_name: 'calendar_list_calendars', identifier, tool_input: {} }],
      ['POST', '/api/v1/proxy', { connection_name: 'cal', identifier, method: 'GET', path: '/calendar/v3/users/me/calendarList' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details.violations[0].pointer).toBe('/identifier');
    }
  });

  it.each(BAD)('refuses a connection name or id with %s with 400, not 500', async (_label, name) => {
    const calls: Array<[string, string, unknown]> = [
      ...(inUrl(name) === null
        ? []
        : ([
            ['GET', `/api/v1/connections/${inUrl(name)}`, undefined],
            ['GET', `/api/v1/connected_accounts/${inUrl(name)}`, undefined],
          ] as Array<[string, string, unknown]>)),
      ['POST', '/api/v1/connected_accounts/magic_link', { connection_name: name, identifier: 'u' }],
      ['POST', '/api/v1/execute_tool', { tool_name: 'calendar_list_calendars', connection_name: name, identifier: 'u', tool_input: {} }],
      ['POST', '/api/v1/connections', { name, connector: 'calendar', client_id: 'c', client_secret: 's' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await h.call(method, path, { token, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(400);
    }
  });

  it('keeps identifiers that differ only in a surrogate apart: one is valid, the others are refused', async () => {
    const make = (identifier: string) => h.call('POST', '/api/v1/connected_accounts/magic_link', { token, body: { connection_name: 'cal', identifier } });
    const valid = await make('same\ufffd');
    expect(valid.status).toBe(200);
    expect((await make('same\ud800')).status).toBe(400);
    expect((await make('same\udc00')).status).toBe(400);
    // A valid pair (an astral character) is fine and is its own account.
    const astral = await make('same\ud83d\ude00');
    expect(astral.status).toBe(200);
    expect(astral.body.connected_account_id).not.toBe(valid.body.connected_account_id);
    const listed = await h.call('GET', `/api/v1/connected_accounts?identifier=${encodeURIComponent('same\ud83d\ude00')}`, { token });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).toContain(astral.body.connected_account_id);
    expect(JSON.stringify(listed.body)).not.toContain(valid.body.connected_account_id);
  });
}

describe('identifiers and names are valid text (SQLite)', () => suite(async () => ({ close: async () => {} })));

postgresSuite('identifiers and names are valid text (PostgreSQL)', (databaseUrl) =>
  suite(async () => {
    const db: TestDatabase = await newPostgresDatabase(databaseUrl);
    const store = await openStore({ ...db.options, keyring: keyring1 });
    return {
      store,
      close: async () => {
        await store.close();
        await db.destroy();
      },
    };
  }),
);
