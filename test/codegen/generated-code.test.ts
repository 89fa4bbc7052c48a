import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import type { ToolDefinition } from '../../runtime/types.js';
import { ConnectorError } from '../../runtime/errors.js';
import { matchingHint } from '../../runtime/http/upstream-hint.js';
import { ROOT, FIXTURE_SPECS, linkedOutDir } from './fixture-env.js';

const out = linkedOutDir('behaviour');
let toolsByName: ReadonlyMap<string, ToolDefinition>;

const tool = (name: string): ToolDefinition => {
  const t = toolsByName.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const violations = (name: string, input: unknown) => {
  const r = tool(name).validate(input);
  return r.ok ? [] : r.violations;
};

beforeAll(async () => {
  await generate({ specsDir: FIXTURE_SPECS, outDir: out.outDir });
  ({ toolsByName } = (await import(join(out.outDir, 'tools.gen.ts'))) as { toolsByName: ReadonlyMap<string, ToolDefinition> });
});
afterAll(() => out.cleanup());

describe('generated validators (fixture specs)', () => {
  it('accepts a valid input and returns it', () => {
    const input = { summary: 'Review', start_datetime: '2026-03-01T10:00:00+01:00', timezone: 'Europe/Paris', attendees_emails: ['a@example.org'] };
    expect(tool('calendar_create_event').validate(input)).toEqual({ ok: true, value: input });
  });

  it.each([
    ['unknown parameter', 'calendar_create_event', { summary: 's', start_datetime: '2026-03-01T10:00:00Z', foo: 1 }, { pointer: '/foo', message: expect.stringMatching(/^unknown parameter 'foo'\. Known parameters: calendar_id, summary, start_datetime, /), keyword: 'additionalProperties' }],
    ['missing required', 'calendar_create_event', { start_datetime: '2026-03-01T10:00:00Z' }, { pointer: '/summary', message: 'summary is required', keyword: 'required' }],
    ['range', 'workspace_database_query', { database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', page_size: 101 }, { pointer: '/page_size', message: 'page_size must be <= 100', keyword: 'maximum' }],
    ['type', 'workspace_database_query', { database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', page_size: 1.5 }, { pointer: '/page_size', message: 'page_size must be an integer', keyword: 'type' }],
    ['date-time without offset', 'calendar_create_event', { summary: 's', start_datetime: '2026-03-01T10:00:00' }, { pointer: '/start_datetime', message: expect.stringMatching(/^start_datetime must be an RFC 3339 date-time with an offset/), keyword: 'format' }],
    ['time zone', 'calendar_create_event', { summary: 's', start_datetime: '2026-03-01T10:00:00Z', timezone: 'Mars/Olympus' }, { pointer: '/timezone', message: expect.stringMatching(/^timezone must be an IANA time zone/), keyword: 'format' }],
    ['nested e-mail', 'calendar_create_event', { summary: 's', start_datetime: '2026-03-01T10:00:00Z', attendees_emails: ['ok@x.org', 'nope'] }, { pointer: '/attendees_emails/1', message: 'attendees_emails[1] must be an e-mail address', keyword: 'format' }],
    ['a version the tools are not built for', 'workspace_page_create', { parent_page_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', workspace_version: '2023-02-30' }, { pointer: '/workspace_version', message: 'workspace_version must be one of: 2022-06-28, 2025-09-03', keyword: 'enum' }],
    ['json-string', 'crm_contacts_list', { filter_json: '{nope' }, { pointer: '/filter_json', message: 'filter_json must be a string holding valid JSON', keyword: 'format' }],
    ['a1-range', 'crm_contacts_list', { range: 'A1:B2:C3' }, { pointer: '/range', message: expect.stringMatching(/^range must be an A1 range/), keyword: 'format' }],
    ['unknown tool_version', 'workspace_page_create', { parent_page_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', tool_version: '9.9.9' }, { pointer: '/tool_version', message: 'unknown tool_version "9.9.9"; this tool has: 1.1.0, 1.0.0', keyword: 'enum' }],
    ['host-computed', 'workspace_page_create', { parent_page_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', _parent: { page_id: 'x' } }, { pointer: '/_parent', message: '_parent is computed by the service; do not supply it', keyword: 'host_computed' }],
    ['exactly one of: none', 'workspace_page_create', {}, { pointer: '/database_id', message: expect.stringMatching(/^Neither database_id nor parent_page_id is given. Supply exactly one of database_id/), keyword: 'exactly_one_of' }],
    ['exactly one of: both', 'workspace_page_create', { database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', parent_page_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', properties: {} }, { pointer: '/parent_page_id', message: expect.stringMatching(/^Supply exactly one of/), keyword: 'exactly_one_of' }],
    ['required if', 'workspace_page_create', { database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' }, { pointer: '/properties', message: 'properties is required when database_id is given.', keyword: 'required_if' }],
    ['items exactly one of', 'workspace_database_query', { database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0', sorts: [{ property: 'Name', direction: 'ascending' }, { property: 'Name', timestamp: 'created_time', direction: 'ascending' }] }, { pointer: '/sorts/1', message: 'Each sort has exactly one of property or timestamp.', keyword: 'items_exactly_one_of' }],
    ['at most one of', 'crm_contacts_list', { after: 'x', filter_json: '{}' }, { pointer: '/filter_json', message: 'after and filter_json cannot be combined.', keyword: 'at_most_one_of' }],
    ['forbidden if', 'crm_contacts_list', { archived: true, filter_json: '{}' }, { pointer: '/archived', message: 'archived cannot be combined with filter_json.', keyword: 'forbidden_if' }],
    ['requires value: absent', 'crm_contacts_list', { limit: 100 }, { pointer: '/archived', message: 'limit 100 needs archived=false.', keyword: 'requires_value' }],
    ['requires value: other value', 'crm_contacts_list', { limit: 100, archived: true }, { pointer: '/archived', message: 'limit 100 needs archived=false.', keyword: 'requires_value' }],
  ])('%s', (_name, name, input, want) => {
    expect(violations(name, input)).toContainEqual(want);
  });

  it('requires value: holds when the condition is false or the value matches', () => {
    for (const input of [{ limit: 100, archived: false }, { limit: 99, archived: true }, { archived: true }, {}]) {
      expect(violations('crm_contacts_list', input), JSON.stringify(input)).toEqual([]);
    }
  });

  it('reports every violation at once (schema and rules together)', () => {
    const v = violations('workspace_page_create', { database_id: 'not-an-id', bogus: 1, _parent: {} });
    expect(v.map((x) => x.keyword).sort()).toEqual(['additionalProperties', 'format', 'host_computed', 'required_if']);
  });

  it('refuses a non-object input without throwing', () => {
    expect(violations('calendar_create_event', 'text')).toEqual([{ pointer: '', message: 'input must be an object', keyword: 'type' }]);
  });
});

describe('generated request builders (fixture specs)', () => {
  it('maps parameters, drops absent values, calls helpers, fills path defaults', () => {
    const req = tool('calendar_create_event').buildRequest({ summary: 'Review', start_datetime: '2026-03-01T10:00:00+01:00', event_duration_hour: 1, send_updates: false, transparency: 'free' });
    expect(req).toEqual({
      method: 'POST',
      path: '/calendar/v3/calendars/primary/events',
      query: { sendUpdates: 'none' },
      headers: {},
      body: { summary: 'Review', start: { dateTime: '2026-03-01T10:00:00+01:00' }, end: { dateTime: '2026-03-01T11:00:00+01:00' }, transparency: 'transparent', kind: '$literal' },
    });
  });

  it('encodes path values and refuses dot segments', () => {
    expect(tool('calendar_create_event').buildRequest({ summary: 's', start_datetime: '2026-03-01T10:00:00Z', calendar_id: 'team/a b@x.org' }).path).toBe('/calendar/v3/calendars/team%2Fa%20b%40x.org/events');
    expect(() => tool('calendar_get_event').buildRequest({ event_id: '..' })).toThrow(ConnectorError);
  });

  it('stringifies query numbers and booleans, repeats arrays, splits lists', () => {
    const req = tool('crm_contacts_list').buildRequest({ limit: 10, archived: false, properties: 'email, firstname,,', owner_ids: [1, 2], after: 'c1' });
    expect(req.query).toEqual({ limit: '10', archived: 'false', properties: ['email', 'firstname'], after: 'c1', ownerIds: ['1', '2'], fixed: '1' });
    expect(req.headers).toEqual({ 'X-Trace': 'c1' });
    expect(req.body).toBeUndefined();
  });

  it('normalizes workspace ids, computes the parent, sends the version header (overridable)', () => {
    const row = tool('workspace_page_create').buildRequest({ database_id: 'https://www.notion.so/Tasks-0f1e2d3c4b5a69788796a5b4c3d2e1f0?v=1', properties: { title: [] } });
    expect(row.body).toEqual({ parent: { database_id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0' }, properties: { title: [] } });
    expect(row.headers).toEqual({ 'Notion-Version': '2022-06-28' });
    const child = tool('workspace_page_create').buildRequest({ parent_page_id: '0F1E2D3C4B5A69788796A5B4C3D2E1F0', workspace_version: '2025-09-03' });
    expect(child.body).toEqual({ parent: { page_id: '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0' } });
    expect(child.headers).toEqual({ 'Notion-Version': '2025-09-03' });
    expect(tool('workspace_database_query').buildRequest({ database_id: '0f1e2d3c4b5a69788796a5b4c3d2e1f0' })).toMatchObject({ path: '/v1/databases/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0/query', body: undefined });
  });

  it('wires definitions: aliases, versions, retry policy, response transform', () => {
    expect(toolsByName.get('googlecalendar_create_event')).toBe(tool('calendar_create_event'));
    expect(tool('workspace_page_create')).toMatchObject({ version: '1.1.0', versions: ['1.1.0', '1.0.0'], schemaVersions: ['1'], retry: 'never' });
    expect(tool('calendar_get_event')).toMatchObject({ version: '2.0.0', schemaVersions: ['2'], retry: 'idempotent' });
    expect(tool('workspace_database_query').retry).toBe('safe');
    expect(tool('crm_contacts_list').schemaVersions).toEqual([]);
    expect(typeof tool('calendar_get_event').transformResponse).toBe('function');
    expect(tool('calendar_create_event').transformResponse).toBeUndefined();
  });

  it("carries a tool's own upstream_errors hints first, then its connector's, so the tool's own wins", () => {
    const ownNotFound = 'No event has this event_id in calendar_id (default primary); calendar_create_event returns the id of the event it creates.';
    const ownRange = "time_min must be before the event's end.";
    const connectorRange = 'The time range is empty: its start must come before its end.';
    const readOnly = 'The user may only read this calendar: calendar_create_event writes only where they are a writer or owner.';
    expect(tool('calendar_get_event').upstreamErrors?.map((h) => h.hint)).toEqual([ownNotFound, ownRange, connectorRange, readOnly]);
    expect(tool('calendar_create_event').upstreamErrors).toEqual([
      { status: 400, messageContains: 'time range', hint: connectorRange },
      { status: 403, code: 'requiredAccessLevel', hint: readOnly },
    ]);
    // Another connector's tools carry none of them.
    expect(tool('workspace_database_query').upstreamErrors).toBeUndefined();
    const refusal = (status: number, reason: string, message: string) => ({ error: { code: status, message, errors: [{ reason, message }] } });
    const rangeHint = (name: string) => matchingHint(tool(name).upstreamErrors ?? [], 'google', 400, refusal(400, 'badRequest', 'The specified time range is empty.'), 'The specified time range is empty.');
    expect(rangeHint('calendar_get_event')).toBe(ownRange);
    expect(rangeHint('calendar_create_event')).toBe(connectorRange);
    expect(matchingHint(tool('calendar_get_event').upstreamErrors ?? [], 'google', 403, refusal(403, 'requiredAccessLevel', 'You need to have writer access to this calendar.'), 'You need to have writer access to this calendar.')).toBe(readOnly);
  });
});

describe('type-checking', () => {
  it('the fixture output and the committed generated/ compile under the project tsconfig', () => {
    // Beside the output directory (where `node_modules` and `runtime` are linked), so `types: ["node"]` and the runtime
    // imports resolve as they do for generated/.
    const tsconfig = join(out.outDir, '..', 'tsconfig.json');
    writeFileSync(tsconfig, JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: ['./generated/**/*.ts', join(ROOT, 'generated/**/*.ts')], exclude: [] }));
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', tsconfig, '--noEmit'], { encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 120_000);
});
