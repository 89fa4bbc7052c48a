/**
 * The sixth agent trial (Google Calendar, HubSpot CRM, Notion databases and pages), through the official MCP SDK
 * client against the service and the sandbox: what an agent that knows only the tool list and the answers could not
 * do, or did wrong without being told, each pinned as it works now.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';
import { mcpSessionClient } from './mcp-agent.js';

let h: Harness;
let c: Client;

beforeAll(async () => {
  h = await startHarness({ sandboxOptions: { providerRateLimits: false } });
  for (const connector of ['crm', 'calendar', 'workspace'] as const) {
    await connectSandboxUser(h, { connector, identifier: 'mo', user: 'mo@example.com' });
  }
  c = await mcpSessionClient(h, 'sixth-trial', { identifier: 'mo' });
});

afterAll(async () => {
  await c?.close();
  await h?.close();
});

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await c.callTool({ name, arguments: args })) as CallToolResult;
}

function ok<T>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
}

function errorOf(result: CallToolResult): { code: string; message: string; violations?: Array<{ pointer: string; message: string }>; details?: { hint?: string } } {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

describe('crm: a deal assigned to the person the user names', () => {
  it('finds the owner id by e-mail with crm_owners_list, and a refused owner is told that tool', async () => {
    const deal = ok<{ id: string }>(await call('crm_deal_create', { dealname: 'Globex platform', dealstage: 'contractsent' }));
    // First try, the e-mail itself: refused, and the hint names the tool that gives the id.
    const refused = errorOf(await call('crm_deal_update', { deal_id: deal.id, properties: { hubspot_owner_id: 'mo@example.com' } }));
    expect(refused.details?.hint).toMatch(/crm_owners_list/);
    const owners = ok<{ results: Array<{ id: string; email: string; userId: number }> }>(await call('crm_owners_list', { email: 'mo@example.com' }));
    expect(owners.results.map((o) => o.email)).toEqual(['mo@example.com']);
    const updated = ok<{ properties: Record<string, string | null> }>(await call('crm_deal_update', { deal_id: deal.id, properties: { hubspot_owner_id: owners.results[0]!.id } }));
    expect(updated.properties.hubspot_owner_id).toBe(owners.results[0]!.id);
  });
});

describe('workspace: a row given to a person, and the rows of that person', () => {
  it("a person's e-mail is refused where a user id belongs, naming workspace_users_list, which gives the id", async () => {
    const found = ok<{ results: Array<{ object: string; id: string; parent?: { page_id?: string } }> }>(await call('workspace_search', { query: 'Tasks' }));
    const tasks = found.results.find((r) => r.object === 'database')!;
    const created = ok<{ id: string }>(
      await call('workspace_database_create', {
        parent: { page_id: tasks.parent!.page_id },
        title: [{ type: 'text', text: { content: 'Projects' } }],
        properties: { Name: { title: {} }, Owner: { people: {} }, Tasks: { relation: { database_id: tasks.id, single_property: {} } } },
      }),
    );
    const rows = ok<{ results: Array<{ id: string }> }>(await call('workspace_database_query', { database_id: tasks.id }));
    const title = { title: [{ text: { content: 'Website relaunch' } }] };
    // The person by e-mail, the task by its title: each refused at its place, saying which id and where it comes from.
    const byEmail = errorOf(await call('workspace_page_create', { database_id: created.id, properties: { title, Owner: { people: [{ email: 'mo@example.com' }] } } }));
    expect(byEmail.violations).toEqual([expect.objectContaining({ pointer: '/properties/Owner/people', message: expect.stringContaining('workspace_users_list') })]);
    const byName = errorOf(await call('workspace_page_create', { database_id: created.id, properties: { title, Owner: { people: [{ id: 'mo@example.com' }] }, Tasks: { relation: [{ id: 'Book the venue' }] } } }));
    expect(byName.violations?.map((v) => v.pointer)).toEqual(['/properties/Owner/people', '/properties/Tasks/relation']);
    expect(byName.violations?.[1]?.message).toMatch(/workspace_database_query/);
    // The id as workspace_users_list gives it.
    const users = ok<{ results: Array<{ id: string; type: string; person?: { email?: string } }> }>(await call('workspace_users_list', {}));
    const mo = users.results.find((u) => u.person?.email === 'mo@example.com')!;
    expect(mo.type).toBe('person');
    ok(await call('workspace_page_create', { database_id: created.id, properties: { title, Owner: { people: [{ id: mo.id }] }, Tasks: { relation: [{ id: rows.results[0]!.id }] } } }));
    // The rows of that person: by e-mail, refused (Notion's filter takes a user id) rather than an empty list.
    const filtered = errorOf(await call('workspace_database_query', { database_id: created.id, filter: { property: 'Owner', people: { contains: 'mo@example.com' } } }));
    expect(filtered.violations).toEqual([expect.objectContaining({ pointer: '/filter/people/contains', message: expect.stringContaining('workspace_users_list') })]);
    const byTask = errorOf(await call('workspace_database_query', { database_id: created.id, filter: { property: 'Tasks', relation: { contains: 'Book the venue' } } }));
    expect(byTask.violations?.map((v) => v.pointer)).toEqual(['/filter/relation/contains']);
    const mine = ok<{ results: unknown[] }>(await call('workspace_database_query', { database_id: created.id, filter: { property: 'Owner', people: { contains: mo.id } } }));
    expect(mine.results).toHaveLength(1);
  });
});

describe('calendar: a weekly all-day event', () => {
  it('needs no time zone (Google gives an all-day date none); a timed recurring event still does, saying why', async () => {
    const created = ok<{ id: string; start: { date?: string } }>(
      await call('calendar_create_event', { summary: 'Sprint day', start_datetime: '2026-12-07', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'] }),
    );
    expect(created.start).toEqual({ date: '2026-12-07' });
    const days = ok<{ items: Array<{ recurringEventId?: string; start: { date?: string } }> }>(
      await call('calendar_list_events', { time_min: '2026-12-01T00:00:00Z', time_max: '2027-01-01T00:00:00Z', single_events: true, query: 'Sprint day' }),
    );
    expect(days.items.map((e) => e.start.date)).toEqual(['2026-12-07', '2026-12-14', '2026-12-21']);
    const timed = errorOf(await call('calendar_create_event', { summary: 'Standup', start_datetime: '2026-12-07T09:00:00+01:00', recurrence: ['RRULE:FREQ=DAILY;COUNT=3'] }));
    expect(timed.violations).toEqual([expect.objectContaining({ pointer: '/timezone', message: expect.stringMatching(/timezone is required with recurrence.*all-day/) })]);
  });
});

describe('a map written as {name, value} pairs, as the closed model formats have the model write it', () => {
  it('is refused at the pair the model wrote, not at the key it was read back to; null still reads as absent', async () => {
    const tasks = ok<{ results: Array<{ object: string; id: string }> }>(await call('workspace_search', { query: 'Tasks' })).results.find((r) => r.object === 'database')!;
    const properties = [
      { name: 'title', value: JSON.stringify({ title: [{ text: { content: 'Pairs' } }] }) },
      { name: 'Status', value: JSON.stringify({ select: { name: 'done' } }) },
      { name: 'Due', value: '{"date": {"start": "2026-12-01"' },
    ];
    // The pre-check's refusal inside the second pair's JSON text, the validator's at the third pair's text itself.
    const refused = errorOf(await call('workspace_database_insert_row', { database_id: tasks.id, properties, icon: null }));
    expect(refused.violations?.map((v) => v.pointer)).toEqual(['/properties/2/value']);
    expect(refused.violations?.[0]?.message).toMatch(/^properties\[2\]\.value must be an object: the text is not JSON/);
    const option = errorOf(await call('workspace_database_insert_row', { database_id: tasks.id, properties: properties.slice(0, 2), icon: null }));
    expect(option.violations).toEqual([
      expect.objectContaining({ pointer: '/properties/1/value', message: expect.stringMatching(/^In the JSON text of properties\[1\]\.value, at select\.name: `Status` is a select column with the option `Done`/) }),
    ]);
    expect(option.message).toContain('In the JSON text of properties[1].value, at select.name: ');
    // A HubSpot value is sent as it is: the pair's value, named as the model wrote it.
    const deal = ok<{ id: string }>(await call('crm_deal_create', { dealname: 'Pairs deal', dealstage: 'contractsent' }));
    const priority = errorOf(await call('crm_deal_update', { deal_id: deal.id, properties: [{ name: 'dealname', value: 'Pairs deal 2' }, { name: 'hs_priority', value: 'urgent' }] }));
    expect(priority.violations).toEqual([expect.objectContaining({ pointer: '/properties/1/value', message: expect.stringMatching(/^properties\[1\]\.value must be one of: HIGH, MEDIUM, LOW/) })]);
    // The same calls with the objects keep their pointers.
    const asObject = errorOf(await call('crm_deal_update', { deal_id: deal.id, properties: { dealname: 'Pairs deal 2', hs_priority: 'urgent' } }));
    expect(asObject.violations).toEqual([expect.objectContaining({ pointer: '/properties/hs_priority', message: expect.stringMatching(/^properties\.hs_priority must be one of/) })]);
  });
});
