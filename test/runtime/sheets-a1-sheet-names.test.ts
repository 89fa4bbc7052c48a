/**
 * Sheets reads a sheet name before `!` without quotes too (Google's own samples write `Class Data!A2:E`), and models
 * copy that form; the a1-range format takes it, and any name in another script (`Лист1!A1`), so such a range reaches
 * the sandbox, which resolves it as Sheets does. What the format still refuses says why, with the fix where it can.
 */
import { describe, expect, it } from 'vitest';
import { A1_SHAPE, useSpreadsheet } from './sheets-fixture.js';

const sheet = useSpreadsheet('Names', ['Class Data', 'Лист1', "Bob's data"]);
const run = sheet.run;

describe('a sheet name written without quotes', () => {
  it('is taken by update, append and get, and names the sheet it says', async () => {
    const written = await run('sheets_update_values', { range: 'Class Data!A1', values: [['Name', 'Major'], ['Ana', 'Math']] });
    expect(written.data).toMatchObject({ updatedRange: "'Class Data'!A1:B2" });
    const appended = await run('sheets_append_values', { range: 'Class Data', values: [['Li', 'Art']] });
    expect(appended.data).toMatchObject({ updates: { updatedRange: "'Class Data'!A3:B3" } });
    const read = await run('sheets_get_values', { range: 'Class Data!A2:E' });
    expect(read.data).toMatchObject({ values: [['Ana', 'Math'], ['Li', 'Art']] });

    await run('sheets_update_values', { range: 'Лист1!B2', values: [['x']] });
    expect((await run('sheets_get_values', { range: "'Лист1'!B2" })).data).toMatchObject({ values: [['x']] });
  });
});

describe('a range the format refuses', () => {
  const refusal = (range: string) => sheet.rangeRefusal('sheets_get_values', { range });
  const shape = A1_SHAPE;

  it('says why: a name with a quote left unquoted (with the fix), a quoted name not closed, cells that are not A1', async () => {
    expect(await refusal("Bob's data!A1:B2")).toBe(`${shape}; a sheet name with a ' is quoted and the ' doubled: 'Bob''s data'!A1:B2`);
    expect(await refusal("'Bob's data'!A1")).toBe(`${shape}; a quoted sheet name ends with ' and a ' inside it is doubled, e.g. 'Bob''s data'!A1:C10`);
    expect(await refusal('Class Data!R1C1:R2C2')).toBe(`${shape}; R1C1 notation is not taken: send A1 notation, Class Data!A1:B2`);
    expect(await refusal('A1 : B2')).toBe(`${shape}; the cells must be one cell (A1) or two joined by a colon without spaces (A1:C10, A:C, 2:4)`);
    // The fix the message gives is taken.
    expect((await run('sheets_get_values', { range: "'Bob''s data'!A1:B2" })).data).toMatchObject({ range: "'Bob''s data'!A1:B2" });
  });
});
