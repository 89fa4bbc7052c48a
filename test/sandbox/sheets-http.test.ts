import { describe, expect, it } from 'vitest';
import { googleApiOverHttp } from './helpers.js';

describe('Sheets fake over HTTP', () => {
  const { api } = googleApiOverHttp('sheets', '/v4', 'http-sheets@example.com', 'https://www.googleapis.com/auth/spreadsheets');

  it('creates, writes to a quoted sheet name through an encoded range, and reads back', async () => {
    const created = await api('/spreadsheets', { method: 'POST', body: JSON.stringify({ sheets: [{ properties: { title: 'My Sheet' } }] }) });
    expect(created.status).toBe(200);
    const id = created.body.spreadsheetId as string;
    const range = encodeURIComponent("'My Sheet'!A1:B2");
    const missing = await api(`/spreadsheets/${id}/values/${range}`, { method: 'PUT', body: JSON.stringify({ values: [['1']] }) });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: { code: 400, message: 'Invalid valueInputOption: INPUT_VALUE_OPTION_UNSPECIFIED', status: 'INVALID_ARGUMENT' } });

    const put = await api(`/spreadsheets/${id}/values/${range}?valueInputOption=USER_ENTERED`, {
      method: 'PUT',
      body: JSON.stringify({ values: [['2', '3'], ['=A1*B1']] }),
    });
    expect(put.body).toMatchObject({ updatedRange: "'My Sheet'!A1:B2", updatedCells: 3 });
    const got = await api(`/spreadsheets/${id}/values/${range}?valueRenderOption=UNFORMATTED_VALUE`);
    expect(got.body).toEqual({ range: "'My Sheet'!A1:B2", majorDimension: 'ROWS', values: [[2, 3], [6]] });
    const book = await api(`/spreadsheets/${id}?ranges=${range}&ranges=${encodeURIComponent('My Sheet!A2')}&includeGridData=true`);
    expect(book.body.sheets[0].data).toHaveLength(2);
    expect(book.body.sheets[0].data[1].rowData[0].values[0].effectiveValue).toEqual({ numberValue: 6 });
    expect((await api('/spreadsheets/unknown')).body.error.status).toBe('NOT_FOUND');
  });
});
