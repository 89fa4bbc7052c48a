import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE } from '../../runtime/errors.js';
import { firstSentence } from '../../codegen/emit/emit-openapi.js';
import { ROOT } from './fixture-env.js';

const run = promisify(execFile);
const OPENAPI = join(ROOT, 'generated/openapi.json');

describe('generated/openapi.json', () => {
  const doc = JSON.parse(readFileSync(OPENAPI, 'utf8')) as Record<string, any>;
  const catalog = JSON.parse(readFileSync(join(ROOT, 'generated/catalog.json'), 'utf8')) as { tools: Array<{ name: string }> };

  it('passes redocly lint (recommended rules) with no errors and no warnings beyond the explained ones', async () => {
    const { stdout, stderr } = await run(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', OPENAPI, '--format=stylish'], { cwd: ROOT, encoding: 'utf8' }).catch((e: { stdout: string; stderr: string }) => {
      throw new Error(`redocly lint failed:\n${e.stdout}\n${e.stderr}`);
    });
    expect(`${stdout}${stderr}`).not.toMatch(/\berror\b/i);
    // .redocly.lint-ignore.yaml lists the deliberate findings, each with its reason; anything new shows here.
    // (Problems print as `line:col  warning  rule`; redocly's banner about Node 20 is not one.)
    expect(`${stdout}${stderr}`).not.toMatch(/^\s*\d+:\d+\s+warning\b|You have \d+ warnings?/m);
    expect(`${stdout}${stderr}`).toMatch(/3 problems are explicitly ignored/);
  }, 120_000);

  it('summarizes each tool operation with the whole first sentence of its description', () => {
    for (const { name } of catalog.tools) {
      const op = doc.paths[`/api/v1/tools/${name}/execute`]?.post;
      expect(op.summary, name).toMatch(/[.!?]$/);
      // Never a sentence cut at a line break of the YAML block: the summary is where the description starts.
      expect(op.description.replace(/\s+/g, ' ').startsWith(op.summary), name).toBe(true);
    }
    expect(firstSentence('Search HubSpot contacts (CRM search\nAPI), e.g. by name. More here.')).toBe('Search HubSpot contacts (CRM search API), e.g. by name.');
    expect(firstSentence('Create a contact: a duplicate fails ("Contact already exists. Existing ID: 1"). Then')).toBe('Create a contact: a duplicate fails ("Contact already exists. Existing ID: 1").');
    expect(firstSentence('Fetch it (events.get) by `a.b` id')).toBe('Fetch it (events.get) by `a.b` id');
  });

  it('defines each shared schema once, as types.gen.ts names it, and the outputs refer to it', () => {
    const schemas = doc.components.schemas as Record<string, any>;
    const event = '#/components/schemas/CalendarEvent';
    for (const tool of ['CalendarCreateEvent', 'CalendarGetEventById', 'CalendarUpdateEvent']) expect(schemas[`${tool}Output`], tool).toEqual({ $ref: event });
    expect(schemas.CalendarListEventsOutput.properties.items.items).toEqual({ $ref: event });
    // The Event is written once: its description and its fields' appear in the CalendarEvent component alone.
    const text = JSON.stringify(schemas);
    for (const d of [schemas.CalendarEvent.description, schemas.CalendarEvent.properties.recurringEventId.description]) expect(text.split(JSON.stringify(d)).length - 1, d).toBe(1);
    const types = readFileSync(join(ROOT, 'generated/types.gen.ts'), 'utf8');
    for (const name of ['CalendarEvent', 'CrmObject', 'CrmCreatedObject', 'DocsDocument', 'SheetsSpreadsheet', 'WorkspacePage', 'WorkspaceRichText']) {
      expect(schemas[name], name).toBeDefined();
      expect(types, name).toContain(`export type ${name} =`);
    }
  });

  it('is OpenAPI 3.1 with one typed execute operation per tool', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const { name } of catalog.tools) {
      const op = doc.paths[`/api/v1/tools/${name}/execute`]?.post;
      expect(op, name).toBeDefined();
      const reqRef: string = op.requestBody.content['application/json'].schema.$ref;
      const req = doc.components.schemas[reqRef.split('/').pop()!];
      const input = doc.components.schemas[(req.properties.tool_input.$ref as string).split('/').pop()!];
      expect(input.additionalProperties).toBe(false);
    }
  });

  it('has the service routes, bearer security, x-request-id on every response and the catalogue error codes', () => {
    for (const route of ['/oauth/token', '/api/v1/connected_accounts/magic_link', '/api/v1/connected_accounts', '/api/v1/connected_accounts/{id}', '/api/v1/execute_tool', '/api/v1/proxy', '/api/v1/tools', '/api/v1/tools/{tool_name}', '/api/v1/connections', '/api/v1/connections/{id_or_name}', '/sso/v1/oauth/{connection_id}/callback', '/sso/v1/connect/{link_token}', '/healthz', '/openapi.json']) {
      expect(doc.paths[route], route).toBeDefined();
    }
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.paths['/oauth/token'].post.security).toEqual([]);
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CATALOGUE));
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (method === 'parameters') continue;
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const resolved = response.$ref ? doc.components.responses[response.$ref.split('/').pop()] : response;
          expect(resolved.headers?.['x-request-id'], `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
  });

  it('types every details field docs/errors.md names, so a typed client reads them without a cast', () => {
    const details = doc.components.schemas.Error.properties.error.properties.details;
    const named = new Set([...readFileSync(join(ROOT, 'docs/errors.md'), 'utf8').matchAll(/`details\.([a-z_]+)/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !(name in details.properties))).toEqual([]);
    // The codes add fields of their own too (a tool's precheck, a refresh): not a closed object.
    expect(details.additionalProperties).toBe(true);
  });

  it('declares Retry-After, required, on every response that says to wait for it', () => {
    for (const [name, response] of Object.entries<any>(doc.components.responses)) {
      if (!/Retry-After/.test(response.description)) continue;
      expect(response.headers['Retry-After'], name).toMatchObject({ required: true, schema: { type: 'integer' } });
    }
    expect(Object.keys(doc.components.responses).filter((name) => doc.components.responses[name].headers['Retry-After']).sort()).toEqual(['RateLimited', 'Unavailable']);
  });

  it('declares WWW-Authenticate, required, on every 401 (RFC 6750: Bearer on the API, Basic on the token route)', () => {
    expect(doc.components.responses.Unauthorized.headers['WWW-Authenticate']).toMatchObject({ required: true });
    expect(doc.paths['/oauth/token'].post.responses['401'].headers['WWW-Authenticate']).toMatchObject({ required: true });
  });

  it('openapi-typescript output for it is committed and lists every execute path', () => {
    const types = readFileSync(join(ROOT, 'generated/openapi-types.gen.ts'), 'utf8');
    for (const { name } of catalog.tools) expect(types).toContain(`"/api/v1/tools/${name}/execute"`);
    // generated-code.test.ts type-checks this file with the rest of generated/.
  });
});
