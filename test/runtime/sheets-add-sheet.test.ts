/**
 * sheets_add_sheet end to end, through the runtime to the Sheets sandbox: "put this week's meetings in a new tab
 * called Week 48". The tab is added with spreadsheets.batchUpdate (one addSheet), written with sheets_update_values
 * at 'Week 48'!A1, read back, and listed by sheets_read_spreadsheet; a second tab of the same title is refused as
 * Google refuses it, with a hint.
 */
import { describe, expect, it } from 'vitest';
import { useSpreadsheet } from './sheets-fixture.js';

const sheet = useSpreadsheet('Team meetings', ['Week 47']);

interface SheetProperties {
  sheetId: number;
  title: string;
  index: number;
  gridProperties: { rowCount: number; columnCount: number };
}
const added = (data: unknown): SheetProperties => (data as { replies: Array<{ addSheet: { properties: SheetProperties } }> }).replies[0]!.addSheet.properties;

describe('sheets_add_sheet', () => {
  it('adds a tab the other sheets tools then write, read and list', async () => {
    const made = await sheet.run('sheets_add_sheet', { title: 'Week 48' });
    const props = added(made.data);
    expect(props).toMatchObject({ title: 'Week 48', index: 1, sheetType: 'GRID', gridProperties: { rowCount: 1000, columnCount: 26 } });
    expect(props.sheetId).toBeGreaterThan(0);

    const written = await sheet.run('sheets_update_values', { range: "'Week 48'!A1", values: [['Meeting', 'Day'], ['Planning', 'Monday']] });
    expect(written.data).toMatchObject({ updatedRange: "'Week 48'!A1:B2", updatedCells: 4 });
    const read = await sheet.run('sheets_get_values', { range: "'Week 48'!A1:B2" });
    expect((read.data as { values: unknown[][] }).values).toEqual([['Meeting', 'Day'], ['Planning', 'Monday']]);

    const listed = await sheet.run('sheets_read_spreadsheet', {});
    const tabs = (listed.data as { sheets: Array<{ properties: SheetProperties }> }).sheets.map((s) => s.properties);
    expect(tabs.map((t) => [t.title, t.index])).toEqual([['Week 47', 0], ['Week 48', 1]]);
    expect(tabs[1]?.sheetId).toBe(props.sheetId);
  });

  it('puts a tab at index with its size, moving the tabs from there one place right', async () => {
    const made = await sheet.run('sheets_add_sheet', { title: 'Summary', index: 0, row_count: 50, column_count: 5 });
    expect(added(made.data)).toMatchObject({ title: 'Summary', index: 0, gridProperties: { rowCount: 50, columnCount: 5 } });
    const listed = await sheet.run('sheets_read_spreadsheet', {});
    expect((listed.data as { sheets: Array<{ properties: SheetProperties }> }).sheets.map((s) => [s.properties.title, s.properties.index])).toEqual([
      ['Summary', 0],
      ['Week 47', 1],
      ['Week 48', 2],
    ]);
    // The grid is the size asked: a write past its 5 columns is refused.
    await expect(sheet.run('sheets_update_values', { range: 'Summary!F1', values: [['x']] })).rejects.toMatchObject({ code: 'upstream_error', status: 400 });
  });

  it('a title already used (whatever its case) is refused as Google refuses it, with a hint to pick another or write to that tab', async () => {
    sheet.harness.sandbox.control.clearRequests();
    const error = (await sheet.run('sheets_add_sheet', { title: 'week 48' }).catch((e: unknown) => e)) as { code: string; status: number; message: string; details: { hint: string } };
    expect(error).toMatchObject({ code: 'upstream_error', status: 400 });
    expect(error.message).toContain('Invalid requests[0].addSheet: A sheet with the name "week 48" already exists. Please enter another name.');
    expect(error.details.hint).toMatch(/pick another title, or write to the existing tab with sheets_update_values/);
    expect(sheet.harness.sandbox.control.requests().map((r) => [r.method, r.status])).toEqual([['POST', 400]]);
    const listed = await sheet.run('sheets_read_spreadsheet', {});
    expect((listed.data as { sheets: unknown[] }).sheets).toHaveLength(3);
  });

  it('an unknown spreadsheet is refused 404 with the hint naming sheets_create_spreadsheet', async () => {
    const error = (await sheet.run('sheets_add_sheet', { spreadsheet_id: '1NoSuchSpreadsheet0000000000000000000000000', title: 'Week 48' }).catch((e: unknown) => e)) as { code: string; status: number; details: { hint: string } };
    expect(error).toMatchObject({ code: 'upstream_error', status: 404 });
    expect(error.details.hint).toMatch(/sheets_create_spreadsheet makes a new one/);
  });

  it('takes the spreadsheet by its URL', async () => {
    const listed = await sheet.run('sheets_read_spreadsheet', {});
    const id = (listed.data as { spreadsheetId: string }).spreadsheetId;
    const made = await sheet.run('sheets_add_sheet', { spreadsheet_id: `https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`, title: 'By URL' });
    expect(made.data).toMatchObject({ spreadsheetId: id });
    expect(added(made.data).title).toBe('By URL');
  });
});
