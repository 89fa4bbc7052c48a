/**
 * sheets_clear_values end to end, through the runtime to the Sheets sandbox: "clear last week's numbers before I paste
 * the new ones". Several ranges are cleared in one values.batchClear, values only (the header rows and other cells
 * stay), then sheets_update_values writes the new numbers; a refused range clears nothing and comes back with a hint;
 * a range the a1-range format refuses is refused before sending, at its place in the list.
 */
import { describe, expect, it } from 'vitest';
import { A1_SHAPE, useSpreadsheet } from './sheets-fixture.js';

const sheet = useSpreadsheet('Weekly numbers', ['Week', 'Totals']);

type Failure = { code: string; status: number; message: string; details: { hint?: string; violations?: Array<{ pointer: string; message: string }> } };
const failure = (call: Promise<unknown>): Promise<Failure> => call.then(() => { throw new Error('the call was expected to fail'); }, (e: unknown) => e as Failure);
const values = async (range: string): Promise<unknown> => ((await sheet.run('sheets_get_values', { range })).data as { values?: unknown }).values;

describe('sheets_clear_values', () => {
  it("clears last week's numbers on two sheets in one call, keeping the headers, and the new ones are written there", async () => {
    await sheet.run('sheets_update_values', { range: 'Week!A1', values: [['Day', 'Calls', 'Deals'], ['Mon', 12, 2], ['Tue', 9, '=B3-8']] });
    await sheet.run('sheets_update_values', { range: 'Totals!A1', values: [['Total', '=SUM(Week!B2:B)']] });
    sheet.harness.sandbox.control.clearRequests();

    const cleared = await sheet.run('sheets_clear_values', { ranges: ['Week!A2:C', 'Totals!B1'] });
    const id = (cleared.data as { spreadsheetId: string }).spreadsheetId;
    expect(cleared.data).toEqual({ spreadsheetId: id, clearedRanges: ['Week!A2:C1000', 'Totals!B1'] });
    expect(sheet.harness.sandbox.control.requests().map((r) => [r.method, r.path, r.status])).toEqual([['POST', `/v4/spreadsheets/${id}/values:batchClear`, 200]]);
    expect(await values('Week!A1:C3')).toEqual([['Day', 'Calls', 'Deals']]);
    expect(await values('Totals!A1:B1')).toEqual([['Total']]);

    await sheet.run('sheets_update_values', { range: 'Week!A2', values: [['Mon', 7, 1]] });
    expect(await values('Week')).toEqual([['Day', 'Calls', 'Deals'], ['Mon', '7', '1']]);
  });

  it('a whole sheet is cleared by its name, and answered bounded to its grid', async () => {
    await sheet.run('sheets_update_values', { range: 'Totals!A1', values: [['x']] });
    const cleared = await sheet.run('sheets_clear_values', { ranges: ['Totals'] });
    expect((cleared.data as { clearedRanges: string[] }).clearedRanges).toEqual(['Totals!A1:Z1000']);
    expect(await values('Totals')).toBeUndefined();
  });

  it('a range on a sheet the spreadsheet lacks clears nothing, even the ranges before it, and the hint says where the titles are', async () => {
    await sheet.run('sheets_update_values', { range: 'Week!A5', values: [['keep']] });
    const error = await failure(sheet.run('sheets_clear_values', { ranges: ['Week!A5', 'Week 48!A2:C'] }));
    expect(error).toMatchObject({ code: 'upstream_error', status: 400 });
    expect(error.message).toContain('Invalid range[1]: Unable to parse range: Week 48!A2:C');
    expect(error.details.hint).toMatch(/^The item of ranges the message names \(range\[0\] is the first\) is on a sheet this spreadsheet does not have: sheets_read_spreadsheet lists the titles/);
    expect(await values('Week!A5')).toEqual([['keep']]);
  });

  it('a range starting past the grid is refused with its hint', async () => {
    const error = await failure(sheet.run('sheets_clear_values', { ranges: ['Week!A1001:C'] }));
    expect(error.message).toContain('Invalid range[0]: Range (Week!A1001:C) exceeds grid limits. Max rows: 1000, max columns: 26');
    expect(error.details.hint).toMatch(/starts past the sheet's last row or column .* Nothing was cleared\.$/);
  });

  it('a range the tools do not take is refused before sending, at its place in ranges; one range given as range is pointed to ranges', async () => {
    sheet.harness.sandbox.control.clearRequests();
    const r1c1 = await failure(sheet.run('sheets_clear_values', { ranges: ['Week!A2:C', 'R1C1:R2C2'] }));
    expect(r1c1.code).toBe('invalid_input');
    expect(r1c1.details.violations).toEqual([{ pointer: '/ranges/1', message: expect.stringContaining('R1C1 notation is not taken: send A1 notation, A1:B2'), keyword: 'format' }]);
    const joined = await failure(sheet.run('sheets_clear_values', { ranges: ['Week!A2:C,Totals!B1'] }));
    expect(joined.details.violations?.[0]).toMatchObject({
      pointer: '/ranges/0',
      message: `${A1_SHAPE.replace(/^range/, 'ranges[0]')}; each item is one range, not several separated by commas: give each range its own item of the list`,
    });
    const single = await failure(sheet.run('sheets_clear_values', { range: 'Week!A2:C' }));
    expect(single.details.violations?.map((v) => v.message)).toContain("unknown parameter 'range'. Did you mean 'ranges'?");
    expect(sheet.harness.sandbox.control.requests()).toHaveLength(0);
  });

  it('takes the spreadsheet by its URL', async () => {
    const listed = await sheet.run('sheets_read_spreadsheet', {});
    const id = (listed.data as { spreadsheetId: string }).spreadsheetId;
    const cleared = await sheet.run('sheets_clear_values', { spreadsheet_id: `https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`, ranges: ['Week!D1'] });
    expect(cleared.data).toEqual({ spreadsheetId: id, clearedRanges: ['Week!D1'] });
  });
});
