/**
 * Sheets and Docs files named by their address, as models copy it from the browser: the typed tools, through the
 * in-process runtime against the sandbox, take `https://docs.google.com/spreadsheets/d/<id>/edit#gid=0` for a
 * spreadsheet_id (and the document's for a document_id), or a Google Drive link to the file, and send the id alone; a
 * Docs address given for a spreadsheet (and the reverse), or anything that is neither an id nor such an address, is
 * refused as invalid_input at its pointer with nothing sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolClient, type ToolClient } from '../../generated/client.gen.js';
import { startHarness, type Harness } from './connector-harness.js';

let h: Harness;
let tools: ToolClient;
let sheet: string;
let doc: string;
const sheetsCall = { identifier: 'url-user', connection_name: 'sheets-conn' };
const docsCall = { identifier: 'url-user', connection_name: 'docs-conn' };

beforeAll(async () => {
  h = await startHarness();
  for (const kind of ['sheets', 'docs'] as const) {
    await h.connection(kind, `${kind}-conn`);
    await h.authorize(`${kind}-conn`, 'url-user');
  }
  tools = createToolClient(h.env);
  sheet = (await tools.sheets_create_spreadsheet({ title: 'Budget' }, sheetsCall)).data.spreadsheetId!;
  doc = (await tools.docs_create_document({ title: 'Notes' }, docsCall)).data.documentId!;
});
afterAll(() => h?.close());

const refusal = (e: unknown) => e as { code: string; details: { violations: Array<{ pointer: string; message: string }> } };

describe('a Sheets or Docs file named by its URL', () => {
  it('writes and reads a spreadsheet given its address, sending the id alone', async () => {
    h.sandbox.control.clearRequests();
    const url = `https://docs.google.com/spreadsheets/d/${sheet}/edit#gid=0`;
    const written = await tools.sheets_update_values({ spreadsheet_id: url, range: 'Sheet1!A1:B1', values: [['Item', 'Qty']] }, sheetsCall);
    expect(written.data.updatedCells).toBe(2);
    const read = await tools.sheets_get_values({ spreadsheet_id: `https://docs.google.com/spreadsheets/u/0/d/${sheet}/edit?usp=sharing`, range: 'Sheet1!A1:B1' }, sheetsCall);
    expect(read.data.values).toEqual([['Item', 'Qty']]);
    const meta = await tools.sheets_read_spreadsheet({ spreadsheet_id: `https://docs.google.com/spreadsheets/d/${sheet}` }, sheetsCall);
    expect(meta.data.spreadsheetId).toBe(sheet);
    expect(h.sandbox.control.requests('sheets').map((r) => r.path)).toEqual([
      `/v4/spreadsheets/${sheet}/values/Sheet1!A1%3AB1`,
      `/v4/spreadsheets/${sheet}/values/Sheet1!A1%3AB1`,
      `/v4/spreadsheets/${sheet}`,
    ]);
  });

  it('edits and reads a document given its address', async () => {
    const url = `https://docs.google.com/document/d/${doc}/edit?tab=t.0`;
    await tools.docs_update_document({ document_id: url, requests: [{ insertText: { location: { index: 1 }, text: 'From a URL' } }] }, docsCall);
    const read = await tools.docs_read_document({ document_id: url }, docsCall);
    expect(read.data.documentId).toBe(doc);
    expect(JSON.stringify(read.data.body)).toContain('From a URL');
  });

  it('takes a Google Drive link to the file (file/d/<id>/view, open?id=<id>) for either kind, sending the id alone', async () => {
    h.sandbox.control.clearRequests();
    const sharing = `https://drive.google.com/file/d/${sheet}/view?usp=sharing`;
    const read = await tools.sheets_get_values({ spreadsheet_id: sharing, range: 'Sheet1!A1:B1' }, sheetsCall);
    expect(read.data.range).toBe('Sheet1!A1:B1');
    const meta = await tools.sheets_read_spreadsheet({ spreadsheet_id: `https://drive.google.com/open?id=${sheet}` }, sheetsCall);
    expect(meta.data.spreadsheetId).toBe(sheet);
    expect(h.sandbox.control.requests('sheets').map((r) => r.path)).toEqual([`/v4/spreadsheets/${sheet}/values/Sheet1!A1%3AB1`, `/v4/spreadsheets/${sheet}`]);
    const document = await tools.docs_read_document({ document_id: `https://drive.google.com/open?id=${doc}&usp=drive_fs` }, docsCall);
    expect(document.data.documentId).toBe(doc);
    const shared = await tools.docs_read_document({ document_id: `https://drive.google.com/file/d/${doc}/view?usp=sharing` }, docsCall);
    expect(shared.data.documentId).toBe(doc);
  });

  it("refuses a document's address for a spreadsheet and the reverse, naming the mix-up; nothing is sent", async () => {
    h.sandbox.control.clearRequests();
    const docUrl = `https://docs.google.com/document/d/${doc}/edit`;
    const asSheet = refusal(await tools.sheets_get_values({ spreadsheet_id: docUrl, range: 'A1' }, sheetsCall).catch((e: unknown) => e));
    expect(asSheet.code).toBe('invalid_input');
    expect(asSheet.details.violations).toEqual([
      expect.objectContaining({ pointer: '/spreadsheet_id', message: expect.stringContaining('it is the URL of a Google Docs document, not of a Google Sheets spreadsheet (the docs_ tools take it)') }),
    ]);
    const sheetUrl = `https://docs.google.com/spreadsheets/d/${sheet}/edit#gid=0`;
    const asDoc = refusal(await tools.docs_read_document({ document_id: sheetUrl }, docsCall).catch((e: unknown) => e));
    expect(asDoc.code).toBe('invalid_input');
    expect(asDoc.details.violations).toEqual([
      expect.objectContaining({ pointer: '/document_id', message: expect.stringContaining('it is the URL of a Google Sheets spreadsheet, not of a Google Docs document') }),
    ]);
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });

  it('refuses what is neither an id nor such an address, saying what an id looks like; nothing is sent', async () => {
    h.sandbox.control.clearRequests();
    for (const spreadsheet_id of ['Q3 budget', 'Sheet1!A1', `https://drive.google.com/drive/folders/${sheet}`, `https://drive.google.com/open?id=${sheet}/edit`]) {
      const error = refusal(await tools.sheets_read_spreadsheet({ spreadsheet_id }, sheetsCall).catch((e: unknown) => e));
      expect(error.code).toBe('invalid_input');
      expect(error.details.violations).toEqual([
        expect.objectContaining({ pointer: '/spreadsheet_id', message: expect.stringContaining('must be a spreadsheet id (letters, digits, - and _, e.g. ') }),
      ]);
    }
    expect(h.sandbox.control.requests()).toHaveLength(0);
  });
});
