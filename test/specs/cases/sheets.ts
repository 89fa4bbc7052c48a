import type { BuildCase, RefuseCase } from '../harness.js';

const ID = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';

export const sheetsBuild: BuildCase[] = [
  {
    name: 'create with title, locale, time zone and a sheet',
    tool: 'sheets_create_spreadsheet',
    input: { title: 'Q1 budget', locale: 'fr_FR', time_zone: 'Europe/Paris', sheets: [{ properties: { title: 'Data' } }] },
    want: {
      method: 'POST', path: '/v4/spreadsheets', query: {}, headers: {},
      body: { properties: { title: 'Q1 budget', locale: 'fr_FR', timeZone: 'Europe/Paris' }, sheets: [{ properties: { title: 'Data' } }] },
    },
  },
  {
    name: 'create with only a title',
    tool: 'sheets_create_spreadsheet',
    input: { title: 'Untitled budget' },
    want: { method: 'POST', path: '/v4/spreadsheets', query: {}, headers: {}, body: { properties: { title: 'Untitled budget' } } },
  },
  {
    name: 'create with defaults: an empty JSON body',
    tool: 'sheets_create_spreadsheet',
    input: {},
    want: { method: 'POST', path: '/v4/spreadsheets', query: {}, headers: {}, body: {} },
  },
  {
    name: 'values of a range, encoded in the path',
    tool: 'sheets_get_values',
    input: { spreadsheet_id: ID, range: 'Sheet1!A1:D10', major_dimension: 'COLUMNS', value_render_option: 'FORMULA' },
    want: { method: 'GET', path: `/v4/spreadsheets/${ID}/values/Sheet1!A1%3AD10`, query: { majorDimension: 'COLUMNS', valueRenderOption: 'FORMULA' }, headers: {} },
  },
  {
    name: 'quoted sheet name with a space',
    tool: 'sheets_get_values',
    input: { spreadsheet_id: ID, range: "'My Sheet'!A:C" },
    want: { method: 'GET', path: `/v4/spreadsheets/${ID}/values/'My%20Sheet'!A%3AC`, query: {}, headers: {} },
  },
  {
    name: 'metadata with grid data of a range',
    tool: 'sheets_read_spreadsheet',
    input: { spreadsheet_id: ID, include_grid_data: true, ranges: 'Sheet1!A1:C20' },
    want: { method: 'GET', path: `/v4/spreadsheets/${ID}`, query: { ranges: 'Sheet1!A1:C20', includeGridData: 'true' }, headers: {} },
  },
  {
    name: 'update defaults valueInputOption to USER_ENTERED',
    tool: 'sheets_update_values',
    input: { spreadsheet_id: ID, range: 'Sheet1!A1:C2', values: [['Item', 'Qty', 'Price'], ['Anvil', 2, '=B2*100']] },
    want: {
      method: 'PUT', path: `/v4/spreadsheets/${ID}/values/Sheet1!A1%3AC2`, query: { valueInputOption: 'USER_ENTERED' }, headers: {},
      body: { values: [['Item', 'Qty', 'Price'], ['Anvil', 2, '=B2*100']] },
    },
  },
  {
    name: 'update RAW with the values echoed back',
    tool: 'sheets_update_values',
    input: { spreadsheet_id: ID, range: 'A1', values: [[true, null, 1.5]], value_input_option: 'RAW', include_values_in_response: true },
    want: {
      method: 'PUT', path: `/v4/spreadsheets/${ID}/values/A1`, query: { valueInputOption: 'RAW', includeValuesInResponse: 'true' }, headers: {},
      body: { values: [[true, null, 1.5]] },
    },
  },
];

const upd = { spreadsheet_id: ID, range: 'A1' };
export const sheetsRefuse: RefuseCase[] = [
  { name: 'time zone unknown', tool: 'sheets_create_spreadsheet', input: { time_zone: 'Paris' }, pointer: '/time_zone', names: 'time_zone' },
  { name: 'locale not a locale', tool: 'sheets_create_spreadsheet', input: { locale: 'French' }, pointer: '/locale', names: 'locale' },
  { name: 'sheets not a list', tool: 'sheets_create_spreadsheet', input: { sheets: { title: 'Data' } }, pointer: '/sheets', names: 'sheets' },
  { name: 'range missing', tool: 'sheets_get_values', input: { spreadsheet_id: ID }, pointer: '/range', names: 'range' },
  { name: 'range not A1', tool: 'sheets_get_values', input: { spreadsheet_id: ID, range: 'R1C1:R2C2!!' }, pointer: '/range', names: 'range' },
  { name: 'major_dimension lower case', tool: 'sheets_get_values', input: { spreadsheet_id: ID, range: 'A1', major_dimension: 'rows' }, pointer: '/major_dimension', names: 'major_dimension' },
  { name: 'value_render_option unknown', tool: 'sheets_get_values', input: { spreadsheet_id: ID, range: 'A1', value_render_option: 'PRETTY' }, pointer: '/value_render_option', names: 'value_render_option' },
  { name: 'spreadsheet_id missing', tool: 'sheets_read_spreadsheet', input: {}, pointer: '/spreadsheet_id', names: 'spreadsheet_id' },
  { name: 'ranges not A1', tool: 'sheets_read_spreadsheet', input: { spreadsheet_id: ID, ranges: 'A1:B2:C3' }, pointer: '/ranges', names: 'ranges' },
  { name: 'values missing', tool: 'sheets_update_values', input: upd, pointer: '/values', names: 'values' },
  { name: 'values one-dimensional', tool: 'sheets_update_values', input: { ...upd, values: ['a', 'b'] }, pointer: '/values/0', names: 'values' },
  { name: 'values empty', tool: 'sheets_update_values', input: { ...upd, values: [] }, pointer: '/values', names: 'values' },
  { name: 'a cell holds an object', tool: 'sheets_update_values', input: { ...upd, values: [[{ v: 1 }]] }, pointer: '/values/0/0', names: 'values' },
  { name: 'value_input_option unknown', tool: 'sheets_update_values', input: { ...upd, values: [[1]], value_input_option: 'PARSED' }, pointer: '/value_input_option', names: 'value_input_option' },
];
