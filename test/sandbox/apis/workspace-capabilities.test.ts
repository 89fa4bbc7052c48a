import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredCapability } from '../../../sandbox/apis/workspace/capabilities.js';
import { startSandbox } from '../../../sandbox/start.js';
import type { NotionCapability, Sandbox } from '../../../sandbox/types.js';
import { CLIENTS, notionTokens, REDIRECT } from '../helpers.js';

type Json = Record<string, any>;

const READER = { provider: 'notion' as const, clientId: 'notion-reader', clientSecret: 'reader-secret', redirectUris: [REDIRECT] };

describe('Notion API fake: integration capabilities', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ clients: [{ ...READER, capabilities: ['read_content', 'read_comments'] }] });
  });
  afterAll(() => sb.close());

  async function call(token: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${sb.url}/notion${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'notion-version': '2022-06-28', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  }
  const title = (s: string) => [{ type: 'text', text: { content: s } }];
  async function home(token: string): Promise<Json> {
    const s = await call(token, 'POST', '/v1/search', { query: 'Getting started' });
    return s.body.results[0];
  }

  it('a read-only integration reads but gets 403 restricted_resource in Notion shape on writes', async () => {
    const token = sb.control.issueTokens('notion', 'reader@example.com', { clientId: READER.clientId }).accessToken;
    const page = await home(token);
    expect(page).toMatchObject({ object: 'page' });
    expect((await call(token, 'GET', `/v1/pages/${page.id}`)).status).toBe(200);
    expect((await call(token, 'GET', `/v1/blocks/${page.id}/children`)).status).toBe(200);
    expect((await call(token, 'GET', `/v1/comments?block_id=${page.id}`)).status).toBe(200);
    expect((await call(token, 'GET', '/v1/users/me')).status).toBe(200);

    const denied = await call(token, 'POST', '/v1/pages', { parent: { page_id: page.id }, properties: { title: { title: title('New') } } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      object: 'error',
      status: 403,
      code: 'restricted_resource',
      message: 'Insufficient permissions for this endpoint.',
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect((await call(token, 'PATCH', `/v1/pages/${page.id}`, { archived: true })).status).toBe(403);
    expect((await call(token, 'PATCH', `/v1/blocks/${page.id}/children`, { children: [] })).status).toBe(403);
    expect((await call(token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: title('hi') })).status).toBe(403);
    // The refusals changed nothing.
    expect((await call(token, 'GET', `/v1/pages/${page.id}`)).body.archived).toBe(false);
    expect((await call(token, 'GET', `/v1/comments?block_id=${page.id}`)).body.results).toHaveLength(0);
  });

  it('applies to tokens from the consent flow, and follows the client when it is registered again', async () => {
    const ctl = `${sb.controlUrl}/_sandbox/clients`;
    const register = (capabilities: unknown) =>
      fetch(ctl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...CLIENTS.notion, capabilities }) });
    expect((await register(['insert_content'])).status).toBe(204);
    const { access_token: token } = await notionTokens(sb, 'writer@example.com');
    expect((await call(token, 'POST', '/v1/search', {})).status).toBe(403);
    const reader = sb.control.issueTokens('notion', 'writer@example.com', { clientId: READER.clientId }).accessToken;
    const page = await home(reader);
    const created = await call(token, 'POST', '/v1/pages', { parent: { page_id: page.id }, properties: { title: { title: title('Inserted') } } });
    expect(created.status).toBe(200);
    expect((await call(token, 'PATCH', `/v1/pages/${created.body.id}`, { archived: true })).status).toBe(403);

    expect((await register(['read_content', 'update_content'])).status).toBe(204);
    expect((await call(token, 'PATCH', `/v1/pages/${created.body.id}`, { archived: true })).status).toBe(200);
    expect((await call(token, 'POST', '/v1/pages', { parent: { page_id: page.id }, properties: { title: { title: title('No') } } })).status).toBe(403);

    // Registering without capabilities restores every capability.
    const all = await fetch(ctl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CLIENTS.notion) });
    expect(all.status).toBe(204);
    expect((await call(token, 'POST', '/v1/comments', { parent: { page_id: page.id }, rich_text: title('back') })).status).toBe(200);
  });

  it('the control API refuses unknown capabilities', async () => {
    const res = await fetch(`${sb.controlUrl}/_sandbox/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...READER, capabilities: ['read_everything'] }),
    });
    expect(res.status).toBe(400);
  });

  it('maps each endpoint to its capability', () => {
    const cases: [string, string, NotionCapability | null][] = [
      ['GET', '/v1/pages/x', 'read_content'],
      ['PATCH', '/v1/pages/x', 'update_content'],
      ['POST', '/v1/pages', 'insert_content'],
      ['GET', '/v1/blocks/x/children', 'read_content'],
      ['PATCH', '/v1/blocks/x/children', 'insert_content'],
      ['POST', '/v1/databases', 'insert_content'],
      ['GET', '/v1/databases/x', 'read_content'],
      ['POST', '/v1/databases/x/query', 'read_content'],
      ['POST', '/v1/search', 'read_content'],
      ['GET', '/v1/comments', 'read_comments'],
      ['GET', '/v1/comments/x', 'read_comments'],
      ['POST', '/v1/comments', 'insert_comments'],
      ['GET', '/v1/users/me', null],
    ];
    for (const [m, p, cap] of cases) expect(requiredCapability(m, p.split('/').filter(Boolean)), `${m} ${p}`).toBe(cap);
  });
});
