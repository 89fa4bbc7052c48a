import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from '../../codegen/generate.js';
import { SpecErrors, formatSpecError } from '../../codegen/load/spec-error.js';
import { specsCopy } from './fixture-env.js';

const QUERY = 'tools/workspace/workspace_database_query.yaml';
const PAGE = 'tools/workspace/workspace_page_create.yaml';
const EVENT = 'tools/calendar/calendar_create_event.yaml';
const CRM = 'tools/crm/crm_contacts_list.yaml';
const GET = 'tools/calendar/calendar_get_event.yaml';
/** The fixture calendar connector: its shared schemas Event and EventDateTime, which calendar_get_event's output names. */
const CAL = 'connectors/calendar.yaml';

/** [name, { file to break, how, the error wanted (file suffix, line, column, message) }] */
const cases: Array<[string, { file: string; change: (t: string) => string; want: { file: string; line: number; column: number; message: RegExp } }]> = [
  ['unknown top-level key', { file: QUERY, change: (t) => t.replace('retry: safe', 'retry: safe\nretries: 3'), want: { file: QUERY, line: 6, column: 1, message: /unknown key 'retries'/ } }],
  ['misspelled top-level key', { file: GET, change: (t) => t.replace('upstream_errors:', 'upstream_error:'), want: { file: GET, line: 27, column: 1, message: /^unknown key 'upstream_error' in the spec: did you mean 'upstream_errors'\?$/ } }],
  ['misspelled key in a parameter', { file: QUERY, change: (t) => t.replace('start_cursor: { type: string }', 'start_cursor: { type: string, minimun: 1 }'), want: { file: QUERY, line: 10, column: 33, message: /^unknown key 'minimun' in parameters\.start_cursor: did you mean 'minimum'\?$/ } }],
  ['unknown key in a parameter', { file: QUERY, change: (t) => t.replace('start_cursor: { type: string }', 'start_cursor: { type: string, minimun: 1 }'), want: { file: QUERY, line: 10, column: 33, message: /unknown key 'minimun' in parameters\.start_cursor/ } }],
  ['wrong type', { file: QUERY, change: (t) => t.replace('maximum: 100', 'maximum: "100"'), want: { file: QUERY, line: 9, column: 52, message: /parameters\.page_size\.maximum must be number/ } }],
  ['unknown parameter in a rule', { file: PAGE, change: (t) => t.replace('exactly_one_of: [database_id, parent_page_id]', 'exactly_one_of: [database_id, page_id]'), want: { file: PAGE, line: 27, column: 35, message: /^rules\.0\.exactly_one_of\.1 names unknown parameter 'page_id' \(the tool's parameters: [^)]*\bdatabase_id, [^)]*\bparent_page_id\b[^)]*\)$/ } }],
  // A near miss is named, as the validators name one to callers; the tool's parameters are listed, the host-computed ones not.
  ['misspelled parameter in a rule', { file: PAGE, change: (t) => t.replace('exactly_one_of: [database_id, parent_page_id]', 'exactly_one_of: [database_id, parent_pageid]'), want: { file: PAGE, line: 27, column: 35, message: /^rules\.0\.exactly_one_of\.1 names unknown parameter 'parent_pageid': did you mean 'parent_page_id'\? \(the tool's parameters: (?![^)]*_parent)[^)]*\)$/ } }],
  ['unknown parameter in requires_value', { file: CRM, change: (t) => t.replace('value: false, when: limit,', 'value: false, when: limits,'), want: { file: CRM, line: 22, column: 64, message: /^rules\.2\.requires_value\.when names unknown parameter 'limits': did you mean 'limit'\?/ } }],
  ['requires_value value of the wrong type', { file: CRM, change: (t) => t.replace('value: false,', 'value: "no",'), want: { file: CRM, line: 22, column: 51, message: /"no" can never be a value of 'archived': its type is boolean/ } }],
  ['requires_value equals not an integer', { file: CRM, change: (t) => t.replace('equals: 100', 'equals: 1.5'), want: { file: CRM, line: 22, column: 79, message: /1\.5 can never be a value of 'limit': its type is integer/ } }],
  ['requires_value without value', { file: CRM, change: (t) => t.replace('value: false, ', ''), want: { file: CRM, line: 22, column: 5, message: /rules\.2\.requires_value is missing the required key 'value'/ } }],
  ['unknown check in a check rule', { file: CRM, change: (t) => t.replace('rules:\n', 'rules:\n  - check: { parameter: filter_json, with: hubspotFilterGrups }\n    message: checked.\n'), want: { file: CRM, line: 18, column: 44, message: /unknown check 'hubspotFilterGrups'; runtime\/validation\/checks\.ts exports: allDayLength, eventZoneOffset, hubspotCompanyProperties, hubspotDealProperties, hubspotFilterGroups/ } }],
  ['later_than on a parameter that is no instant', { file: EVENT, change: (t) => t.replace('request:', 'rules:\n  - later_than: { parameter: start_datetime, than: timezone }\n    message: m.\nrequest:'), want: { file: EVENT, line: 20, column: 52, message: /later_than compares instants; 'timezone' needs format date-time or date/ } }],
  ['not_all_zero on a parameter that is no number', { file: EVENT, change: (t) => t.replace('request:', 'rules:\n  - not_all_zero: [event_duration_hour, location]\n    message: m.\nrequest:'), want: { file: EVENT, line: 20, column: 41, message: /not_all_zero needs number parameters; 'location' is not one/ } }],
  ['unknown parameter in the mapping', { file: EVENT, change: (t) => t.replace('location: $location', 'location: $place'), want: { file: EVENT, line: 28, column: 15, message: /^request\.body\.location names unknown parameter 'place' \(the tool's parameters: [^)]*\blocation\b[^)]*; write \$\$ for a literal '\$'\)$/ } }],
  ['misspelled parameter in the mapping', { file: EVENT, change: (t) => t.replace('location: $location', 'location: $locaton'), want: { file: EVENT, line: 28, column: 15, message: /^request\.body\.location names unknown parameter 'locaton': did you mean 'location'\? \(the tool's parameters: / } }],
  ['unknown helper', { file: EVENT, change: (t) => t.replace('$call: sendUpdates', '$call: sendUpdate'), want: { file: EVENT, line: 25, column: 27, message: /unknown helper 'sendUpdate'/ } }],
  ['wrong arity', { file: EVENT, change: (t) => t.replace('args: [$start_datetime, null, $event_duration_hour, $event_duration_minutes]', 'args: [$start_datetime, $event_duration_hour]'), want: { file: EVENT, line: 31, column: 42, message: /helper 'eventEnd' takes 4 argument\(s\), request\.body\.end\.dateTime passes 2/ } }],
  ['duplicate name', { file: EVENT, change: (t) => t.replace('aliases: [googlecalendar_create_event]', 'aliases: [crm_contacts_list]'), want: { file: 'tools/crm/crm_contacts_list.yaml', line: 2, column: 7, message: /duplicate tool name or alias 'crm_contacts_list' \(already used by .*calendar_create_event\.yaml\)/ } }],
  ['path placeholder without a value', { file: QUERY, change: (t) => t.replace('{database_id}/query', '{database_id}/{view}'), want: { file: QUERY, line: 26, column: 9, message: /^request\.path: placeholder '\{view\}' names unknown parameter 'view' \(the tool's parameters: [^)]*\bdatabase_id\b/ } }],
  ['path placeholder in camel case', { file: QUERY, change: (t) => t.replace('{database_id}/query', '{databaseId}/query'), want: { file: QUERY, line: 26, column: 9, message: /^request\.path: placeholder '\{databaseId\}' names unknown parameter 'databaseId': did you mean 'database_id'\?/ } }],
  ['a token kept as provider info', { file: 'connectors/workspace.yaml', change: (t) => t.replace('provider_info_fields: [bot_id,', 'provider_info_fields: [access_token,'), want: { file: 'connectors/workspace.yaml', line: 20, column: 26, message: /provider_info_fields/ } }],
  ['an account identity that is not kept', { file: 'connectors/workspace.yaml', change: (t) => t.replace('duplicated_template_id]\n', 'duplicated_template_id]\n  account_identity: [/workspace_id, /request_id]\n'), want: { file: 'connectors/workspace.yaml', line: 21, column: 37, message: /account_identity \/request_id must start with a provider_info_fields member/ } }],
  ['unknown precheck', { file: QUERY, change: (t) => t.replace('precheck: workspaceColumns', 'precheck: workspaceColumn'), want: { file: QUERY, line: 35, column: 11, message: /unknown precheck 'workspaceColumn' \(known: calendarEventLength, sheetsLinkedTab, workspaceColumns, workspacePageColumns\)/ } }],
  ['precheck of another connector', { file: EVENT, change: (t) => t.replace('request:', 'precheck: workspaceColumns\nrequest:'), want: { file: EVENT, line: 19, column: 11, message: /precheck 'workspaceColumns' is for workspace tools, not calendar/ } }],
  ['read_only with destructive', { file: QUERY, change: (t) => t.replace('annotations: { read_only: true }', 'annotations: { read_only: true, destructive: true }'), want: { file: QUERY, line: 33, column: 33, message: /a read_only tool changes nothing, so 'destructive' does not apply/ } }],
  ['a writing tool without destructive', { file: PAGE, change: (t) => t.replace('{ read_only: false, destructive: false, idempotent: false }', '{ read_only: false, idempotent: false }'), want: { file: PAGE, line: 47, column: 14, message: /annotations\.destructive is required when read_only is false/ } }],
  ['read_only: false on a GET', { file: CRM, change: (t) => t.replace('annotations: { read_only: true }', 'annotations: { read_only: false, destructive: false, idempotent: true }'), want: { file: CRM, line: 38, column: 27, message: /read_only: false on a GET request/ } }],
  ['a read_only POST without retry: safe', { file: QUERY, change: (t) => t.replace('retry: safe\n', ''), want: { file: QUERY, line: 32, column: 27, message: /a read_only tool sent as POST needs retry: safe/ } }],
  ['annotations without read_only', { file: EVENT, change: (t) => t.replace('{ read_only: false, destructive: false, idempotent: false }', '{ destructive: false, idempotent: false }'), want: { file: EVENT, line: 39, column: 1, message: /annotations is missing the required key 'read_only'/ } }],
  ['no title', { file: QUERY, change: (t) => t.replace('title: Query database\n', ''), want: { file: QUERY, line: 2, column: 1, message: /missing the required key 'title'/ } }],
  ['an output that is not an object schema', { file: EVENT, change: (t) => t.replace('output: { type: object,', 'output: { type: array,'), want: { file: EVENT, line: 40, column: 17, message: /output\.type/ } }],
  ['an output object without its fields', { file: EVENT, change: (t) => t.replace('properties: { id: { type: string } } }', 'properties: { start: { type: object } } }'), want: { file: EVENT, line: 40, column: 54, message: /object without its fields: list its notable properties/ } }],
  ['an output array without items', { file: CRM, change: (t) => t.replace('properties: { id: { type: string } } }', 'properties: { results: { type: array } } }'), want: { file: CRM, line: 39, column: 56, message: /array without items/ } }],
  ['an output required naming no property', { file: CRM, change: (t) => t.replace('properties: { id: { type: string } } }', 'properties: { id: { type: string } }, required: [ids] }'), want: { file: CRM, line: 39, column: 74, message: /required names 'ids', which is not in properties/ } }],
  ['a description too long for model APIs', { file: QUERY, change: (t) => t.replace("description: Query a database's rows, optionally sorted.", `description: ${'Query rows. '.repeat(90)}`), want: { file: QUERY, line: 6, column: 14, message: /the description with its rules is 1139 characters; model APIs take under 1024/ } }],
  ['an example naming an unknown parameter', { file: CRM, change: (t) => t.replace("input: { limit: 10, properties: 'email,firstname' }", "input: { limit: 10, propertis: 'email' }"), want: { file: CRM, line: 42, column: 25, message: /example input names 'propertis', which is not a parameter of crm_contacts_list/ } }],
  ['an example with another method', { file: CRM, change: (t) => t.replace('request: { method: GET, path: /crm/v3/objects/contacts', 'request: { method: POST, path: /crm/v3/objects/contacts'), want: { file: CRM, line: 43, column: 24, message: /the tool sends GET, not POST/ } }],
  ['no examples', { file: CRM, change: (t) => t.slice(0, t.indexOf('examples:')), want: { file: CRM, line: 2, column: 1, message: /missing the required key 'examples'/ } }],
  ['an array without items', { file: QUERY, change: (t) => t.replace('start_cursor: { type: string }', 'start_cursor: { type: array }'), want: { file: QUERY, line: 10, column: 25, message: /array without items/ } }],
  ['request_versions keyed by an unsupported version', { file: PAGE, change: (t) => t.replace('"2025-09-03":', '"2026-03-11":'), want: { file: PAGE, line: 49, column: 3, message: /'2026-03-11' is not a version Notion-Version supports \(2022-06-28, 2025-09-03\)/ } }],
  ['request_versions mapping an unknown parameter', { file: PAGE, change: (t) => t.replace('parent: { page_id: $parent_page_id }', 'parent: { page_id: $parent_id }'), want: { file: PAGE, line: 53, column: 26, message: /request_versions\.2025-09-03\.body\.parent\.page_id names unknown parameter 'parent_id'/ } }],
  ['a version parameter listing its own versions', { file: PAGE, change: (t) => t.replace('workspace_version: { type: string, format: date,', 'workspace_version: { type: string, enum: ["2022-06-28"],'), want: { file: PAGE, line: 25, column: 38, message: /takes the connector's version_header\.supported/ } }],
  ['a default version not supported', { file: 'connectors/workspace.yaml', change: (t) => t.replace('default: "2022-06-28"', 'default: "2021-08-16"'), want: { file: 'connectors/workspace.yaml', line: 26, column: 52, message: /default version '2021-08-16' is not in supported/ } }],
  ['a schema without a type', { file: QUERY, change: (t) => t.replace('start_cursor: { type: string }', 'start_cursor: { description: a cursor }'), want: { file: QUERY, line: 10, column: 17, message: /schema without a type/ } }],
  ['a parameter name longer than model APIs take', { file: QUERY, change: (t) => t.replace('start_cursor: { type: string }', `${'c'.repeat(65)}: { type: string }`), want: { file: QUERY, line: 10, column: 3, message: /invalid name 'c{65}' in parameters/ } }],
  ['a tool name longer than model APIs take', { file: CRM, change: (t) => t.replace('name: crm_contacts_list', `name: crm_${'c'.repeat(62)}`), want: { file: CRM, line: 2, column: 7, message: /name must match pattern "\^\[a-z\]\[a-z0-9_\]\{0,63\}\$"/ } }],
  ['an absent parameter the tool has', { file: QUERY, change: (t) => t.replace('annotations: { read_only: true }', 'annotations: { read_only: true }\nabsent_parameters: { page_size: Sent anyway. }'), want: { file: QUERY, line: 34, column: 22, message: /'page_size' is a parameter of the tool; absent_parameters names those it lacks/ } }],
  ['YAML syntax error', { file: QUERY, change: (t) => t.replace('retry: safe', 'retry: [safe'), want: { file: QUERY, line: 6, column: 1, message: /^YAML: / } }],
  ['a ref to an unknown shared schema', { file: GET, change: (t) => t.replace("'#/schemas/Event'", "'#/schemas/Evnt'"), want: { file: GET, line: 22, column: 17, message: /unknown shared schema 'Evnt': connector calendar has Event, EventDateTime/ } }],
  ["a ref to another connector's schema", { file: GET, change: (t) => t.replace("'#/schemas/Event'", "'#/schemas/Page'"), want: { file: GET, line: 22, column: 17, message: /'#\/schemas\/Page' is a schema of connector workspace: a ref names a schema of its own connector \(calendar\)/ } }],
  ['a ref that is no #/schemas/<Name>', { file: GET, change: (t) => t.replace("'#/schemas/Event'", "'#/definitions/Event'"), want: { file: GET, line: 22, column: 17, message: /\$ref "#\/definitions\/Event" names no shared schema: write '#\/schemas\/<Name>'/ } }],
  ['a key beside a ref that is neither description nor properties', { file: GET, change: (t) => t.replace("'#/schemas/Event', ", "'#/schemas/Event', required: [id], "), want: { file: GET, line: 22, column: 36, message: /'required' beside \$ref: only a description .* and properties .* may stand beside one/ } }],
  ['an output ref to a schema that is not an object', { file: CAL, change: (t) => t.replace('  Event:\n    type: object', '  Event:\n    type: [object, "null"]'), want: { file: GET, line: 22, column: 17, message: /the output is an object schema \(the MCP outputSchema\); #\/schemas\/Event is of type \["object","null"\]/ } }],
  ['shared schemas in a cycle', { file: CAL, change: (t) => t.replace('dateTime: { type: string }', "dateTime: { $ref: '#/schemas/Event' }"), want: { file: CAL, line: 48, column: 25, message: /'#\/schemas\/Event' makes a cycle \(Event -> EventDateTime -> Event\)/ } }],
  ['a shared schema with an array without items', { file: CAL, change: (t) => t.replace('attendees: { type: array, items: { type: object, properties: { email: { type: string } } } }', 'attendees: { type: array }'), want: { file: CAL, line: 43, column: 26, message: /array without items/ } }],
  ['a shared schema with an object without its fields', { file: CAL, change: (t) => t.replace('id: { type: string }', 'id: { type: object }'), want: { file: CAL, line: 39, column: 19, message: /object without its fields/ } }],
  ['a shared schema whose required names no property', { file: CAL, change: (t) => t.replace('required: [id]', 'required: [ids]'), want: { file: CAL, line: 37, column: 16, message: /required names 'ids', which is not in properties/ } }],
  ['properties beside a ref that break the output rules', { file: PAGE, change: (t) => t.replace('in_trash: { type: boolean }', 'in_trash: { type: array }'), want: { file: PAGE, line: 44, column: 23, message: /array without items/ } }],
  ['a shared schema name that a tool type could have', { file: CAL, change: (t) => t.replace('  EventDateTime:\n', '  EventOutput:\n').replace(/EventDateTime'/g, "EventOutput'"), want: { file: CAL, line: 44, column: 3, message: /invalid name 'EventOutput' in schemas/ } }],
  ['a shared schema name that is no type name', { file: CAL, change: (t) => t.replace('  EventDateTime:\n', '  event_date_time:\n').replace(/EventDateTime'/g, "event_date_time'"), want: { file: CAL, line: 44, column: 3, message: /invalid name 'event_date_time' in schemas/ } }],
  ['an upstream_errors hint for a status that is no error', { file: GET, change: (t) => t.replace('status: 404, code: notFound', 'status: 302, code: notFound'), want: { file: GET, line: 28, column: 15, message: /upstream_errors\.0\.status must be >= 400/ } }],
  ['an upstream_errors hint for a 429, which is upstream_rate_limited', { file: GET, change: (t) => t.replace('status: 404, code: notFound', 'status: 429, code: notFound'), want: { file: GET, line: 28, column: 15, message: /a 429 never reaches the caller as upstream_error: it is upstream_rate_limited/ } }],
  ['an unknown key in an upstream_errors entry', { file: GET, change: (t) => t.replace('code: notFound,', 'reason: notFound,'), want: { file: GET, line: 28, column: 20, message: /unknown key 'reason' in upstream_errors\.0/ } }],
  ['an upstream_errors entry without its hint', { file: GET, change: (t) => t.replace(/, hint: "No event[^"]*"/, ''), want: { file: GET, line: 28, column: 5, message: /upstream_errors\.0 is missing the required key 'hint'/ } }],
  ['a duplicate upstream_errors status and code', { file: GET, change: (t) => t.replace('status: 400, message_contains: time range,', 'status: 404, code: notFound,'), want: { file: GET, line: 29, column: 5, message: /duplicate upstream_errors entry for 404 notFound \(also upstream_errors\.0\)/ } }],
  ['an upstream_errors entry an earlier one shadows', { file: GET, change: (t) => t.replace('status: 404, code: notFound', 'status: 400').replace('status: 400, message_contains: time range', 'status: 400, code: badRequest'), want: { file: GET, line: 29, column: 5, message: /upstream_errors entry for 400 badRequest never matches: upstream_errors\.0 comes first/ } }],
  ['an upstream_errors hint naming no tool', { file: GET, change: (t) => t.replace('calendar_create_event returns', 'calendar_list_events returns'), want: { file: GET, line: 28, column: 42, message: /the hint names 'calendar_list_events', which is no tool, alias or parameter/ } }],
  // A connector's upstream_errors (which every tool of it carries after its own) pass the same checks, in its file.
  ['a connector upstream_errors hint for a 401', { file: CAL, change: (t) => t.replace('status: 400, message_contains: time range', 'status: 401, message_contains: time range'), want: { file: CAL, line: 51, column: 15, message: /a 401 never reaches the caller as upstream_error/ } }],
  ['a connector upstream_errors hint for a 429', { file: CAL, change: (t) => t.replace('status: 403, code: requiredAccessLevel', 'status: 429, code: requiredAccessLevel'), want: { file: CAL, line: 52, column: 15, message: /a 429 never reaches the caller as upstream_error: it is upstream_rate_limited/ } }],
  ['an unknown key in a connector upstream_errors entry', { file: CAL, change: (t) => t.replace('code: requiredAccessLevel,', 'reason: requiredAccessLevel,'), want: { file: CAL, line: 52, column: 20, message: /unknown key 'reason' in upstream_errors\.1/ } }],
  ['a duplicate connector upstream_errors entry', { file: CAL, change: (t) => t.replace('status: 403, code: requiredAccessLevel', 'status: 400, message_contains: Time Range'), want: { file: CAL, line: 52, column: 5, message: /duplicate upstream_errors entry for 400 "Time Range" \(also upstream_errors\.0\)/ } }],
  ['a connector upstream_errors entry an earlier one shadows', { file: CAL, change: (t) => t.replace('status: 403, code: requiredAccessLevel', 'status: 400, code: badRequest, message_contains: specified time range'), want: { file: CAL, line: 52, column: 5, message: /upstream_errors entry for 400 badRequest "specified time range" never matches: upstream_errors\.0 comes first/ } }],
  ["a connector upstream_errors hint naming another connector's tool", { file: CAL, change: (t) => t.replace('calendar: calendar_create_event writes', 'calendar: crm_contacts_list writes'), want: { file: CAL, line: 52, column: 53, message: /the hint names 'crm_contacts_list', which is no tool, alias or parameter of a calendar tool/ } }],
  // Shared parameters: calendar_create_event's calendar_id is `{ use: calendar_id }`, the fixture connector's one.
  ['a parameter using an unknown shared parameter', { file: EVENT, change: (t) => t.replace('calendar_id: { use: calendar_id }', 'calendar_id: { use: calendar }'), want: { file: EVENT, line: 8, column: 23, message: /^tool calendar_create_event: parameter 'calendar_id' uses 'calendar', which is no shared parameter of the calendar connector \(.*connectors\/calendar\.yaml parameters: calendar_id\)$/ } }],
  ['a parameter using a shared parameter of a connector that has none', { file: CRM, change: (t) => t.replace(/^  limit: .*$/m, '  limit: { use: limit }'), want: { file: CRM, line: 9, column: 17, message: /^tool crm_contacts_list: parameter 'limit' uses 'limit', which is no shared parameter of the crm connector \(.*connectors\/crm\.yaml parameters: none\)$/ } }],
  ['a key beside use', { file: EVENT, change: (t) => t.replace('calendar_id: { use: calendar_id }', 'calendar_id: { use: calendar_id, description: Where. }'), want: { file: EVENT, line: 8, column: 36, message: /unknown key 'description' in parameters\.calendar_id: a parameter that uses a shared one is \{ use: <name> \} alone/ } }],
  ['a shared parameter no tool uses', { file: EVENT, change: (t) => t.replace('calendar_id: { use: calendar_id }', 'calendar_id: { type: string, minLength: 1 }'), want: { file: CAL, line: 55, column: 3, message: /shared parameter 'calendar_id' is used by no calendar tool/ } }],
  ['an unknown key in a shared parameter', { file: CAL, change: (t) => t.replace('calendar_id: { type: string, minLength: 1 }', 'calendar_id: { type: string, minLenght: 1 }'), want: { file: CAL, line: 55, column: 32, message: /unknown key 'minLenght' in parameters\.calendar_id: did you mean 'minLength'\?$/ } }],
];

describe('broken specs', () => {
  const copies: Array<{ cleanup(): void }> = [];
  afterEach(() => copies.splice(0).forEach((c) => c.cleanup()));

  it.each(cases)('%s: reported at file:line:column, nothing written', async (_name, { file, change, want }) => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(file, change);
    const base = mkdtempSync(join(tmpdir(), 'codegen-out-'));
    copies.push({ cleanup: () => rmSync(base, { recursive: true, force: true }) });
    const out = join(base, 'generated');
    const error = await generate({ specsDir: specs.dir, outDir: out }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SpecErrors);
    const errors = (error as SpecErrors).errors;
    const hit = errors.find((e) => want.message.test(e.message));
    expect(hit, errors.map(formatSpecError).join('\n')).toBeDefined();
    expect(hit!.file.endsWith(want.file)).toBe(true);
    expect({ line: hit!.line, column: hit!.column }).toEqual({ line: want.line, column: want.column });
    expect(existsSync(out)).toBe(false);
  });

  // One mistake, one error: the anyOf that lets a parameter's type be a name or a list of names adds no generic
  // "has an invalid value" beside the error that says what is wrong.
  it.each([
    ['a misspelled type name', 'start_cursor: { type: strng }', /^parameters\.start_cursor\.type must be one of "string", "integer"/],
    ['a misspelled type name in a list', 'start_cursor: { type: [strng, "null"] }', /^parameters\.start_cursor\.type\.0 must be one of "string", "integer"/],
  ])('%s is one error, saying which names a type takes', async (_name, line, message) => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(QUERY, (t) => t.replace('start_cursor: { type: string }', line));
    const error = (await generate({ specsDir: specs.dir }).catch((e: unknown) => e)) as SpecErrors;
    expect(error.errors.map(formatSpecError)).toEqual([expect.stringMatching(new RegExp(`${QUERY}:10:\\d+ ${message.source.slice(1)}`))]);
  });

  // A key indented one space short makes the YAML parser report the line and every line after it in the mapping:
  // the first error is the mistake, the rest its echoes, so one error is reported, saying how many followed.
  it('a YAML syntax error is reported once, at the first error, not once per line it upsets', async () => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(QUERY, (t) => t.replace('  start_cursor: { type: string }', ' start_cursor: { type: string }'));
    const error = (await generate({ specsDir: specs.dir }).catch((e: unknown) => e)) as SpecErrors;
    expect(error.errors.map(formatSpecError)).toEqual([expect.stringMatching(new RegExp(`${QUERY}:10:1 YAML: All mapping items must start at the same column \\(and \\d+ more after it, which it may cause or hide: fix it first\\)$`))]);
  });

  it('collects errors from several files in one run', async () => {
    const specs = specsCopy();
    copies.push(specs);
    specs.edit(QUERY, (t) => t.replace('retry: safe', 'retry: sometimes'));
    specs.edit(EVENT, (t) => t.replace('$call: sendUpdates', '$call: nope'));
    const error = (await generate({ specsDir: specs.dir }).catch((e: unknown) => e)) as SpecErrors;
    expect(error.errors.map((e) => e.message)).toEqual([expect.stringMatching(/unknown helper 'nope'/), expect.stringMatching(/retry must be one of/)]);
  });
});
