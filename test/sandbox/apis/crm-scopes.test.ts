import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requiredScopes } from '../../../sandbox/apis/crm/scopes.js';
import { startSandbox } from '../../../sandbox/start.js';
import type { Sandbox } from '../../../sandbox/types.js';
import { clients, hubspotTokens } from '../helpers.js';

type Json = Record<string, any>;

describe('HubSpot CRM fake: granular scopes', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ clients: clients(), providerRateLimits: false });
  });
  afterAll(() => sb.close());

  async function call(token: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${sb.url}/hubspot${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Json };
  }

  it('a consented token gets 403 MISSING_SCOPES in HubSpot shape for a scope it lacks', async () => {
    const { access_token: token } = await hubspotTokens(sb, 'scoped@example.com', 'crm.objects.contacts.read crm.objects.deals.read');
    const denied = await call(token, 'POST', '/crm/v3/objects/contacts', { properties: { email: 'x@example.com' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      status: 'error',
      message: "This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.",
      correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      category: 'MISSING_SCOPES',
      errors: [{ message: 'One or more of the following scopes are required.', context: { requiredGranularScopes: ['crm.schemas.contacts.write', 'crm.objects.contacts.sensitive.write.v2', 'crm.objects.contacts.write', 'crm.objects.contacts.highly_sensitive.write.v2'] } }],
      links: { scopes: 'https://developers.hubspot.com/scopes' },
    });
    // Nothing was created: the refusal comes before the handler.
    const listed = await call(token, 'GET', '/crm/v3/objects/contacts?limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.results.length).toBeGreaterThan(0); // the user's sample contacts
    expect(listed.body.results.map((r: Json) => r.properties.email)).not.toContain('x@example.com');
  });

  it('checks the scope per object type and verb; search is a read', async () => {
    const { access_token: token } = await hubspotTokens(sb, 'verbs@example.com', 'crm.objects.contacts.read crm.objects.deals.read');
    expect((await call(token, 'GET', '/crm/v3/objects/contacts')).status).toBe(200);
    expect((await call(token, 'POST', '/crm/v3/objects/contacts/search', {})).status).toBe(200);
    expect((await call(token, 'POST', '/crm/v3/objects/deals/search', {})).status).toBe(200);
    expect((await call(token, 'GET', '/crm/v3/pipelines/deals')).status).toBe(200);
    // A contact, company or deal call names the object's schema, sensitive, plain and highly sensitive scopes.
    const object = (type: string, access: string) => [`crm.schemas.${type}.${access}`, `crm.objects.${type}.sensitive.${access}.v2`, `crm.objects.${type}.${access}`, `crm.objects.${type}.highly_sensitive.${access}.v2`];
    const cases: [string, string, string[]][] = [
      ['GET', '/crm/v3/objects/companies', object('companies', 'read')],
      ['POST', '/crm/v3/objects/companies/search', object('companies', 'read')],
      ['PATCH', '/crm/v3/objects/deals/30001', object('deals', 'write')],
      ['DELETE', '/crm/v3/objects/contacts/101', object('contacts', 'write')],
      ['GET', '/crm/v3/owners', ['crm.objects.owners.read']],
      ['GET', '/crm/v3/owners/75480001', ['crm.objects.owners.read']],
      // The v4 default association asks the from record's write scope.
      ['PUT', '/crm/v4/objects/deals/30001/associations/default/contacts/101', ['crm.objects.deals.write']],
    ];
    for (const [method, path, scopes] of cases) {
      const r = await call(token, method, path, method === 'PATCH' ? { properties: {} } : undefined);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.errors[0].context.requiredGranularScopes).toEqual(scopes);
    }
  });

  it('write scopes allow writes; owners.read allows owners', async () => {
    const { access_token: token } = await hubspotTokens(sb, 'writer@example.com', 'crm.objects.companies.write crm.objects.owners.read');
    const created = await call(token, 'POST', '/crm/v3/objects/companies', { properties: { name: 'Acme' } });
    expect(created.status).toBe(201);
    expect((await call(token, 'PATCH', `/crm/v3/objects/companies/${created.body.id}`, { properties: { domain: 'acme.test' } })).status).toBe(200);
    expect((await call(token, 'GET', `/crm/v3/objects/companies/${created.body.id}`)).status).toBe(403);
    expect((await call(token, 'GET', '/crm/v3/owners')).status).toBe(200);
    // Listing the deal pipelines needs crm.objects.deals.read, refused in HubSpot's words without it.
    const pipelines = await call(token, 'GET', '/crm/v3/pipelines/deals');
    expect(pipelines.status).toBe(403);
    expect(pipelines.body).toMatchObject({ category: 'MISSING_SCOPES', errors: [{ context: { requiredGranularScopes: ['crm.objects.deals.read'] } }] });
    expect(pipelines.body.message).toBe("This app hasn't been granted all required scopes to make this call. Read more about required scopes here: https://developers.hubspot.com/scopes.");
  });

  it('control.issueTokens: without scopes unrestricted, with scopes restricted to them', async () => {
    const open = sb.control.issueTokens('hubspot', 'open@example.com').accessToken;
    expect((await call(open, 'POST', '/crm/v3/objects/deals', { properties: { dealname: 'D', dealstage: 'closedwon' } })).status).toBe(201);
    expect((await call(open, 'GET', '/crm/v3/owners')).status).toBe(200);
    const ownersOnly = sb.control.issueTokens('hubspot', 'owners@example.com', { scopes: ['crm.objects.owners.read'] }).accessToken;
    expect((await call(ownersOnly, 'GET', '/crm/v3/owners')).status).toBe(200);
    expect((await call(ownersOnly, 'GET', '/crm/v3/objects/contacts')).status).toBe(403);
  });

  it('a refreshed token keeps the grant scopes', async () => {
    const t = await hubspotTokens(sb, 'refresh@example.com', 'crm.objects.deals.read');
    const res = await fetch(sb.endpoints('crm').tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: 'hubspot-client', client_secret: 'hubspot-secret' }).toString(),
    });
    const fresh = ((await res.json()) as { access_token: string }).access_token;
    expect((await call(fresh, 'GET', '/crm/v3/objects/deals')).status).toBe(200);
    expect((await call(fresh, 'GET', '/crm/v3/objects/contacts')).status).toBe(403);
  });
});

describe('crm connector default scopes', () => {
  it('cover the scope of every crm tool (specs/connectors/crm.yaml against specs/tools/crm)', () => {
    const root = join(import.meta.dirname, '../../../specs');
    const connector = parse(readFileSync(join(root, 'connectors/crm.yaml'), 'utf8')) as { oauth: { default_scopes: string[] }; proxy: { examples: string[] } };
    const dir = join(root, 'tools/crm');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    // A path parameter with an enum (crm_association_create's object types) stands for each of its values, any other
    // (an id) for "1".
    const paths = (path: string, parameters: Record<string, { enum?: string[] }>): string[] => {
      const m = /\{(\w+)\}/.exec(path);
      if (!m) return [path];
      const values = parameters[m[1]!]?.enum ?? ['1'];
      return values.flatMap((v) => paths(path.replace(m[0], v), parameters));
    };
    const needed = files.flatMap((f) => {
      const tool = parse(readFileSync(join(dir, f), 'utf8')) as { name: string; parameters?: Record<string, { enum?: string[] }>; request: { method: string; path: string } };
      return paths(tool.request.path, tool.parameters ?? {}).map((path) => ({ tool: `${tool.name} ${path}`, scopes: requiredScopes(tool.request.method, path.split('/').filter(Boolean)) }));
    });
    for (const path of connector.proxy.examples) needed.push({ tool: `proxy ${path}`, scopes: requiredScopes('GET', path.split('/').filter(Boolean)) });
    // Any one of the scopes HubSpot names admits the call: the defaults must hold one.
    for (const n of needed) {
      expect(n.scopes, n.tool).not.toBeNull();
      expect(n.scopes!.filter((s) => connector.oauth.default_scopes.includes(s)), n.tool).not.toEqual([]);
    }
  });

  it('maps verbs to read or write', () => {
    expect(requiredScopes('GET', ['crm', 'v3', 'objects', 'deals', '1'])).toContain('crm.objects.deals.read');
    expect(requiredScopes('POST', ['crm', 'v3', 'objects', 'deals', 'search'])).toContain('crm.objects.deals.read');
    expect(requiredScopes('POST', ['crm', 'v3', 'objects', 'deals'])).toContain('crm.objects.deals.write');
    expect(requiredScopes('POST', ['crm', 'v3', 'objects', 'deals'])).not.toContain('crm.objects.deals.read');
    expect(requiredScopes('GET', ['crm', 'v3', 'objects', 'tickets'])).toBeNull();
    // Notes take the contacts scopes, as HubSpot's notes guide lists them.
    expect(requiredScopes('POST', ['crm', 'v3', 'objects', 'notes'])).toEqual(['crm.objects.contacts.write']);
    expect(requiredScopes('GET', ['crm', 'v3', 'objects', 'notes', '40001'])).toEqual(['crm.objects.contacts.read']);
    expect(requiredScopes('GET', ['crm', 'v3', 'pipelines', 'deals'])).toEqual(['crm.objects.deals.read']);
    expect(requiredScopes('GET', ['crm', 'v3', 'pipelines', 'tickets'])).toBeNull();
  });
});
