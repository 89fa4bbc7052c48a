/**
 * Inputs as agents send them, through the HTTP service against the sandbox: filterGroups as an array or a JSON string
 * (checked before anything is sent, each error at its pointer), a HubSpot property named by its label, Sheets and Docs files named by their URL, tool_input
 * omitted, and messages that say what is wrong where.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSandboxUser, startHarness, type Harness } from './harness.js';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await startHarness();
  token = await h.token(h.a);
  for (const [connector, user] of [['crm', 'ivy'], ['calendar', 'ivy'], ['workspace', 'ivy'], ['sheets', 'ivy'], ['docs', 'ivy']] as const) {
    await connectSandboxUser(h, { connector, identifier: user, user: `${user}@example.com` });
  }
});
afterAll(async () => h?.close());

const run = (tool_name: string, tool_input?: unknown) =>
  h.call('POST', '/api/v1/execute_tool', { token, body: { identifier: 'ivy', tool_name, ...(tool_input === undefined ? {} : { tool_input }) } });

describe('filterGroups', () => {
  it('is taken as an array or as a JSON string, with the same result', async () => {
    for (const email of ['zed.one@filters.test', 'zed.two@filters.test', 'other@elsewhere.test']) {
      expect((await run('crm_contact_create', { email })).status).toBe(200);
    }
    const groups = [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@filters.test' }] }];
    const asArray = await run('crm_contacts_search', { filterGroups: groups, properties: 'email' });
    const asString = await run('crm_contacts_search', { filterGroups: JSON.stringify(groups), properties: 'email' });
    expect(asArray.status, JSON.stringify(asArray.body)).toBe(200);
    expect(asArray.body.data.results.map((r: { properties: { email: string } }) => r.properties.email).sort()).toEqual(['zed.one@filters.test', 'zed.two@filters.test']);
    expect(asString.body.data.results).toEqual(asArray.body.data.results);
  });

  it('is refused before anything is sent, every error at its pointer, in either form', async () => {
    const bad = [
      { filters: [{ propertyName: 'email', operator: 'LIKE', value: 'x' }, { operator: 'IN', value: 'a' }] },
      { filters: [{ propertyName: 'amount', operator: 'BETWEEN', value: '1' }] },
    ];
    h.sandbox.control.clearRequests();
    for (const filterGroups of [bad, JSON.stringify(bad)]) {
      const res = await run('crm_deals_search', { filterGroups });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.details.violations.map((v: { pointer: string }) => v.pointer)).toEqual([
        '/filterGroups/0/filters/0/operator',
        '/filterGroups/0/filters/1/propertyName',
        '/filterGroups/0/filters/1/value',
        '/filterGroups/0/filters/1/values',
        '/filterGroups/1/filters/0/highValue',
      ]);
      expect(res.body.error.details.violations[0].message).toBe(
        'filterGroups[0].filters[0].operator must be one of: EQ, NEQ, LT, LTE, GT, GTE, BETWEEN, IN, NOT_IN, HAS_PROPERTY, NOT_HAS_PROPERTY, CONTAINS_TOKEN, NOT_CONTAINS_TOKEN',
      );
    }
    const tooMany = await run('crm_companies_search', { filterGroups: Array.from({ length: 6 }, () => ({ filters: [{ propertyName: 'name', operator: 'HAS_PROPERTY' }] })) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.violations).toEqual([{ pointer: '/filterGroups', message: 'filterGroups has 6 groups; HubSpot takes at most 5', keyword: 'maxItems' }]);
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });

  it('within the limits, the sandbox (as HubSpot since August 2024) takes 10 filters in a group', async () => {
    const filters = Array.from({ length: 10 }, () => ({ propertyName: 'email', operator: 'HAS_PROPERTY' }));
    const res = await run('crm_contacts_search', { filterGroups: [{ filters }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('a property named by its label', () => {
  const label = (where: string, name: string) =>
    `${where}: "${name}" looks like a property's label; HubSpot takes its internal name, lower case without spaces (e.g. firstname, lastname, email, lifecyclestage, dealstage, closedate)`;

  it('is refused before anything is sent, in properties and in a filter, saying what to send instead', async () => {
    h.sandbox.control.clearRequests();
    const search = await run('crm_contacts_search', {
      properties: 'email,First Name',
      filterGroups: [{ filters: [{ propertyName: 'Lifecycle Stage', operator: 'EQ', value: 'customer' }] }],
    });
    expect(search.status).toBe(400);
    expect(search.body.error.code).toBe('invalid_input');
    expect(search.body.error.details.violations).toEqual([
      { pointer: '/properties', message: label('properties', 'First Name'), keyword: 'pattern' },
      { pointer: '/filterGroups/0/filters/0/propertyName', message: label('filterGroups[0].filters[0].propertyName', 'Lifecycle Stage'), keyword: 'pattern' },
    ]);
    const get = await run('crm_contact_get', { contact_id: '1', properties: 'Close Date' });
    expect(get.status).toBe(400);
    expect(get.body.error.details.violations).toEqual([{ pointer: '/properties', message: label('properties', 'Close Date'), keyword: 'pattern' }]);
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });

  it('leaves a name without whitespace, a trailing comma and spaces around commas to HubSpot as before', async () => {
    const res = await run('crm_contacts_list', { properties: 'email, Email,', limit: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('messages and pointers', () => {
  it('says "limit must be an integer"', async () => {
    const res = await run('crm_contacts_search', { limit: 2.5 });
    expect(res.body.error.details.violations).toEqual([{ pointer: '/limit', message: 'limit must be an integer', keyword: 'multipleOf' }]);
  });

  it('says when neither of an exactly-one-of pair is given, at a pointer', async () => {
    const res = await run('workspace_page_create', { properties: { title: { title: [{ text: { content: 'x' } }] } } });
    expect(res.status).toBe(400);
    const [violation] = res.body.error.details.violations;
    expect(violation.pointer).toBe('/database_id');
    expect(violation.message).toMatch(/^Neither database_id nor parent_page_id is given\. Supply exactly one of/);
  });
});

describe('a time zone given as a city alone', () => {
  it('is refused naming the IANA zone meant, on every tool with a time zone parameter, with nothing sent', async () => {
    h.sandbox.control.clearRequests();
    const hint = (name: string, zone: string) => `${name} must be an IANA time zone name, e.g. Europe/Paris; a zone's IANA name starts with its area: send ${zone}`;
    const created = await run('calendar_create_event', { summary: 'Planning', start_datetime: '2026-03-02T10:00:00+01:00', timezone: 'Paris' });
    expect(created.status).toBe(400);
    expect(created.body.error.code).toBe('invalid_input');
    expect(created.body.error.details.violations).toEqual([{ pointer: '/timezone', keyword: 'format', message: hint('timezone', 'Europe/Paris') }]);
    const busy = await run('calendar_free_busy', { time_min: '2026-03-05T13:00:00-05:00', time_max: '2026-03-05T18:00:00-05:00', timezone: 'new york' });
    expect(busy.status).toBe(400);
    expect(busy.body.error.details.violations).toEqual([{ pointer: '/timezone', keyword: 'format', message: hint('timezone', 'America/New_York') }]);
    const sheet = await run('sheets_create_spreadsheet', { title: 'Budget', time_zone: 'tokyo' });
    expect(sheet.status).toBe(400);
    expect(sheet.body.error.details.violations).toEqual([{ pointer: '/time_zone', keyword: 'format', message: hint('time_zone', 'Asia/Tokyo') }]);
    expect(h.sandbox.control.requests()).toEqual([]);
  });
});

describe('Sheets and Docs files named by their URL', () => {
  it('takes the address a model copies from the browser and sends the id alone', async () => {
    const sheet = (await run('sheets_create_spreadsheet', { title: 'From a URL' })).body.data.spreadsheetId as string;
    h.sandbox.control.clearRequests();
    const res = await run('sheets_update_values', { spreadsheet_id: `https://docs.google.com/spreadsheets/d/${sheet}/edit#gid=0`, range: 'A1', values: [['ok']] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.spreadsheetId).toBe(sheet);
    // The address names a tab (gid=0) and the range none: the sheets are read once to see that tab is the first.
    expect(h.sandbox.control.requests('sheets').map((r) => r.path)).toEqual([`/v4/spreadsheets/${sheet}`, `/v4/spreadsheets/${sheet}/values/A1`]);
  });

  it('takes a Google Drive link to the file, as models are often given, and sends the id alone', async () => {
    const sheet = (await run('sheets_create_spreadsheet', { title: 'From a Drive link' })).body.data.spreadsheetId as string;
    h.sandbox.control.clearRequests();
    const res = await run('sheets_update_values', { spreadsheet_id: `https://drive.google.com/file/d/${sheet}/view?usp=sharing`, range: 'A1', values: [['ok']] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.spreadsheetId).toBe(sheet);
    const opened = await run('sheets_get_values', { spreadsheet_id: `https://drive.google.com/open?id=${sheet}`, range: 'A1' });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.data.values).toEqual([['ok']]);
    expect(h.sandbox.control.requests('sheets').map((r) => r.path)).toEqual([`/v4/spreadsheets/${sheet}/values/A1`, `/v4/spreadsheets/${sheet}/values/A1`]);
  });

  it("refuses a document's address for a spreadsheet as invalid_input, naming the mix-up, with nothing sent", async () => {
    const doc = (await run('docs_create_document', { title: 'Not a sheet' })).body.data.documentId as string;
    h.sandbox.control.clearRequests();
    const res = await run('sheets_get_values', { spreadsheet_id: `https://docs.google.com/document/d/${doc}/edit`, range: 'A1' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(res.body.error.details.violations).toEqual([
      {
        pointer: '/spreadsheet_id',
        keyword: 'format',
        message: expect.stringMatching(/^spreadsheet_id must be a spreadsheet id \(letters, digits, - and _, .*; it is the URL of a Google Docs document, not of a Google Sheets spreadsheet \(the docs_ tools take it\)$/),
      },
    ]);
    expect(h.sandbox.control.requests()).toEqual([]);
  });
});

describe('JSON text for a free-form object, as the closed formats give it to models', () => {
  it('is read as any caller JSON: too deep, or with a __proto__ key, it is refused at its pointer, with nothing sent', async () => {
    const doc = (await run('docs_create_document', { title: 'JSON text' })).body.data.documentId as string;
    h.sandbox.control.clearRequests();
    const text = JSON.stringify({ insertText: { location: { index: 1 }, text: 'From JSON text' } });
    const ok = await run('docs_update_document', { document_id: doc, requests: [text] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(h.sandbox.control.requests('docs')).toHaveLength(1);
    h.sandbox.control.clearRequests();
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    // Each refusal says why the text was not taken, at the item's pointer; a text that is not JSON is not quoted back.
    const refusals: Array<[string, string]> = [
      [deep, 'requests[0] must be an object: the JSON text is nested deeper than 64 levels'],
      ['{"__proto__": {"insertText": {"location": {"index": 1}, "text": "x"}}}', 'requests[0] must be an object: the JSON text has a __proto__ key'],
      ['{"constructor": {"prototype": {"x": 1}}}', 'requests[0] must be an object: the JSON text has a constructor.prototype key'],
      ['{insertText: "secret-looking"}', "requests[0] must be an object: the text is not JSON (Expected property name or '}' at position 1); expected JSON text of an object, e.g. {\"insertText\":{\"location\":{\"index\":1},\"text\":\"Hello world\\n\"}}"],
      ['not json at all', "requests[0] must be an object: the text is not JSON (Unexpected token 'o' at position 1); expected JSON text of an object, e.g. {\"insertText\":{\"location\":{\"index\":1},\"text\":\"Hello world\\n\"}}"],
      ['[{"insertText": {}}]', 'requests[0] must be an object: the JSON text is an array, not an object'],
    ];
    for (const [text, message] of refusals) {
      const refused = await run('docs_update_document', { document_id: doc, requests: [text] });
      expect(refused.status, JSON.stringify(refused.body).slice(0, 300)).toBe(400);
      expect(refused.body.error.code).toBe('invalid_input');
      expect(refused.body.error.details.violations).toEqual([{ pointer: '/requests/0', keyword: 'type', message }]);
    }
    expect(h.sandbox.control.requests()).toEqual([]);
  });
});

describe('an open map given as {name, value} pairs', () => {
  it('refuses a pair named __proto__ at the map, with nothing sent: it set the decoded map\'s prototype, so the pair vanished unchecked (an object value became what every missing key of the map read as)', async () => {
    const contact = (await run('crm_contact_create', { email: 'proto.pairs@example.com' })).body.data.id as string;
    h.sandbox.control.clearRequests();
    const inputs: [string, string, Record<string, unknown>][] = [
      ['crm_contact_update', '/props', { contact_id: contact, props: [{ name: '__proto__', value: 'x' }, { name: 'firstname', value: 'Ana' }] }],
      [
        'workspace_database_insert_row',
        '/properties',
        { database_id: 'd9824bdc-8445-4327-be8b-5b47500af6ce', properties: [{ name: '__proto__', value: '{"title": {"title": []}}' }, { name: 'Status', value: '{"select": {"name": "Open"}}' }] },
      ],
    ];
    for (const [tool, pointer, input] of inputs) {
      const res = await run(tool, input);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.details.violations).toEqual([{ pointer, keyword: 'type', message: expect.stringMatching(/ must be an object or a list of \{name, value\} pairs; item 0 is named "__proto__", which is not a name a map can take$/) }]);
    }
    expect(h.sandbox.control.requests()).toEqual([]);
  });
});

describe('tool_input', () => {
  it('may be omitted for a tool with no required parameter, on both execute routes', async () => {
    const generic = await run('calendar_list_calendars');
    expect(generic.status, JSON.stringify(generic.body)).toBe(200);
    expect(generic.body.data.items.length).toBeGreaterThan(0);
    const named = await h.call('POST', '/api/v1/tools/calendar_list_calendars/execute', { token, body: { identifier: 'ivy' } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
  });

  it('omitted for a tool with required parameters, the answer names each of them, with what each holds', async () => {
    const res = await run('crm_contact_get');
    expect(res.status).toBe(400);
    expect(res.body.error.details.violations).toEqual([{ pointer: '/contact_id', message: "contact_id is required (The contact's HubSpot record id (digits): the id of a crm_contacts_search result, not a name or e-mail)", keyword: 'required' }]);
  });
});

describe('a Notion property value given bare', () => {
  it("is refused with the value's shape from the tool's example (not 'the text is not JSON'), and the shape is taken", async () => {
    const found = await run('workspace_search', { query: 'Getting started' });
    const parent_page_id = found.body.data.results[0].id as string;
    h.sandbox.control.clearRequests();
    for (const title of ['Meeting notes', [{ text: { content: 'Meeting notes' } }]]) {
      const res = await run('workspace_page_create', { parent_page_id, properties: { title } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.violations).toEqual([
        { pointer: '/properties/title', keyword: 'type', message: 'properties.title must be an object, e.g. {"title":[{"text":{"content":"Project plan"}}]}' },
      ]);
    }
    // A column no example names is shown each value shape the examples give, not the title's alone.
    const row = await run('workspace_page_create', { parent_page_id, properties: { title: { title: [{ text: { content: 'x' } }] }, Owner: 'Ana' } });
    expect(row.body.error.details.violations).toEqual([
      {
        pointer: '/properties/Owner',
        keyword: 'type',
        message:
          'properties.Owner must be an object, the value object of its type, e.g. {"title":[{"text":{"content":"Project plan"}}]}, {"select":{"name":"Open"}}, {"date":{"start":"2026-03-01"}}, {"number":3}, {"checkbox":true} or {"rich_text":[{"text":{"content":"Notes"}}]}',
      },
    ]);
    // Text that looks like JSON still says why it was not read.
    const broken = await run('workspace_page_create', { parent_page_id, properties: { title: '{"title": [' } });
    expect(broken.body.error.details.violations[0].message).toMatch(/^properties\.title must be an object: the text is not JSON/);
    expect(h.sandbox.control.requests('workspace')).toEqual([]);
    const made = await run('workspace_page_create', { parent_page_id, properties: { title: { title: [{ text: { content: 'Meeting notes' } }] } } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
  });

  it('a comment given as bare text, or its rich_text as one string, is shown the shape it takes', async () => {
    const found = await run('workspace_search', { query: 'Getting started' });
    const parent = { page_id: found.body.data.results[0].id as string };
    const bare = await run('workspace_comment_create', { parent, comment: 'Looks good' });
    expect(bare.body.error.details.violations).toEqual([
      { pointer: '/comment', keyword: 'type', message: 'comment must be an object, e.g. {"rich_text":[{"type":"text","text":{"content":"Looks good to me."}}]}' },
    ]);
    const text = await run('workspace_comment_create', { parent, comment: { rich_text: 'Looks good' } });
    expect(text.body.error.details.violations).toEqual([
      { pointer: '/comment/rich_text', keyword: 'type', message: 'comment.rich_text must be an array, e.g. [{"type":"text","text":{"content":"Looks good to me."}}]' },
    ]);
  });
});

describe('a Notion property value whose JSON text is not JSON', () => {
  it('is refused saying JSON text was expected, where, and what to send, as a pair or in the object; nothing sent', async () => {
    const found = await run('workspace_search', { query: 'Getting started' });
    const parent_page_id = found.body.data.results[0].id as string;
    h.sandbox.control.clearRequests();
    const title = {
      pointer: '/properties/title',
      keyword: 'type',
      message: 'properties.title must be an object: the text is not JSON (Unexpected end of JSON input at position 11); expected JSON text of an object, e.g. {"title":[{"text":{"content":"Project plan"}}]}',
    };
    // The pair format (the closed model formats' way to write the map) sends each value as JSON text: the refusal
    // points at the pair's value and names it, as the model wrote it.
    const pair = await run('workspace_page_create', { parent_page_id, properties: [{ name: 'title', value: '{"title": [' }] });
    expect(pair.status).toBe(400);
    expect(pair.body.error.details.violations).toEqual([{ ...title, pointer: '/properties/0/value', message: title.message.replace('properties.title', 'properties[0].value') }]);
    const inObject = await run('workspace_page_create', { parent_page_id, properties: { title: '{"title": [' } });
    expect(inObject.body.error.details.violations).toEqual([title]);
    // A column no example names is shown each value shape the examples give.
    const column = await run('workspace_page_create', { parent_page_id, properties: [{ name: 'title', value: '{"title":[{"text":{"content":"x"}}]}' }, { name: 'Owner', value: "{select: {name: 'Ana'}}" }] });
    expect(column.body.error.details.violations).toEqual([
      {
        pointer: '/properties/1/value',
        keyword: 'type',
        message:
          "properties[1].value must be an object: the text is not JSON (Expected property name or '}' at position 1); expected JSON text of an object, the value object of its type, e.g. {\"title\":[{\"text\":{\"content\":\"Project plan\"}}]}, {\"select\":{\"name\":\"Open\"}}, {\"date\":{\"start\":\"2026-03-01\"}}, {\"number\":3}, {\"checkbox\":true} or {\"rich_text\":[{\"text\":{\"content\":\"Notes\"}}]}",
      },
    ]);
    expect(h.sandbox.control.requests('workspace')).toEqual([]);
  });
});

describe('a value that matches none of its allowed shapes', () => {
  it('is refused naming each shape by the keys it takes', async () => {
    h.sandbox.control.clearRequests();
    const both = await run('docs_update_document', {
      document_id: '1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz',
      requests: [{ insertText: { location: { index: 1 }, text: 'x' } }],
      write_control: { requiredRevisionId: 'a', targetRevisionId: 'b' },
    });
    expect(both.status).toBe(400);
    expect(both.body.error.details.violations).toEqual([
      { pointer: '/write_control', keyword: 'oneOf', message: 'write_control does not match any of its allowed shapes: {requiredRevisionId} or {targetRevisionId}, with no other key' },
    ]);
    const found = await run('workspace_search', { query: 'Getting started' });
    h.sandbox.control.clearRequests();
    const icon = await run('workspace_page_create', {
      parent_page_id: found.body.data.results[0].id,
      properties: { title: { title: [{ text: { content: 'Launch' } }] } },
      icon: { emoji: '🚀' },
    });
    expect(icon.body.error.details.violations).toEqual([
      { pointer: '/icon', keyword: 'oneOf', message: 'icon does not match any of its allowed shapes: {type: "emoji", emoji} or {type: "external", external}, with no other key' },
    ]);
    expect(h.sandbox.control.requests()).toEqual([]);
  });
});

describe('an open map given as the JSON text of an object', () => {
  it('is read as the object, as a free-form object is; text that is not one is refused saying why, nothing sent', async () => {
    const made = await run('crm_contact_create', { email: 'json.props@maps.test', firstname: 'Jo' });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const contact_id = made.body.data.id as string;
    const updated = await run('crm_contact_update', { contact_id, props: '{"firstname": "Joanna", "jobtitle": "CTO"}' });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.properties).toMatchObject({ firstname: 'Joanna', jobtitle: 'CTO' });
    h.sandbox.control.clearRequests();
    for (const [props, why] of [
      ['firstname=Joanna', 'the text is not JSON (Unexpected token \'i\' at position 1); expected JSON text of an object, e.g. {"firstname":"Ana","jobtitle":"CTO","lifecyclestage":"customer"}'],
      ['[{"firstname": "Joanna"}]', 'the JSON text is an array, not an object'],
      ['{"__proto__": {"firstname": "Joanna"}}', 'the JSON text has a __proto__ key'],
    ]) {
      const res = await run('crm_contact_update', { contact_id, props });
      expect(res.status).toBe(400);
      expect(res.body.error.details.violations).toEqual([{ pointer: '/props', keyword: 'type', message: `props must be an object: ${why}` }]);
    }
    expect(h.sandbox.control.requests('crm')).toEqual([]);
  });
});
