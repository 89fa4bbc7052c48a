import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formats, notLater } from '../../../runtime/validation/formats.js';
import { formatProblem, zoneProblem } from '../../../runtime/validation/format-problems.js';
import { validateCalendarCreateEvent, validateCalendarUpdateEvent, validateCrmDealCreate, validateDocsUpdateDocument, validateSheetsGetValues } from '../../../generated/validators.gen.js';

const cases: Array<[string, { valid: string[]; invalid: string[] }]> = [
  ['date-time', { valid: ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+01:00', '2024-02-29t23:59:60-05:30'], invalid: ['2026-03-01T10:00:00', '2026-03-01 10:00:00Z', '2026-02-30T10:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T10:00:00+1:00', '2026-03-01T10:00:00.Z', '2026-03-01T10:00:00Z ', '2026-03-01T10:00:00+01:00x', '2026-03-01T10:00:00+24:00', '2026-03-01T10:00:00+01:60', '2026-03-01T10:60:00Z', '2026-03-01T10:00:61Z', '2026-03-01T10:00:00+01', '2026-03-01T10:00:00', '2026-03-01T10:00', '', '٢٠٢٦-03-01T10:00:00Z'] }],
  ['date-or-date-time', { valid: ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+01:00', '2026-12-04', '2024-02-29'], invalid: ['2026-03-01T10:00:00', '2026-03-01 10:00:00Z', '2026-02-30', '2023-02-29', '2026-3-1', '2026-12-04T', '2026-12-04Z', '20261204', ''] }],
  ['date', { valid: ['2026-03-01', '2024-02-29', '2000-02-29'], invalid: ['2026-3-1', '2023-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '20260301', '2026-03-01 ', '2026-03-1a', '2026/03/01', ''] }],
  ['email', { valid: ['a@example.org', 'first.last+tag@sub.example.co'], invalid: ['nope', 'a@', '@b.org', 'a b@c.org'] }],
  ['uri', { valid: ['https://example.org/x?y=1', 'mailto:a@b.org'], invalid: ['/relative', 'example.org', 'https://exa mple.org'] }],
  ['iana-time-zone', { valid: ['Europe/Paris', 'UTC', 'America/Argentina/Buenos_Aires', 'US/Eastern'], invalid: ['Mars/Olympus', '+01:00', 'Europe/', ''] }],
  ['a1-range', { valid: ['A1', 'A1:C10', 'A:C', '2:4', 'Sheet1!A1:B2', "'My Sheet'!A1", "'It''s'!B:B", 'Sheet1', 'A1:C', 'My Sheet!A1', 'Class Data!A2:E', 'Лист1!A1', 'Expense log', `'"Q4 Budget"'!A1`, 'Say "hi"!A1', '!A1', "''!B2:C3", '!A:C', 'R1', 'C2', 'R1:R2', 'RC:RC', "'RC'", 'RC!A1', 'Rows'], invalid: ['RC', 'R1C1', 'C', 'r', 'R[1]C[1]', 'C[2]', 'Sheet1!RC', '!R1C1', 'A1:B2:C3', "'Open!A1", '!', '!Sheet1', "''", "''!", 'Sheet1!B', 'Sheet1!2', '!AB', '', "Bob's data!A1", "'Bob's data'!A1", 'A1 : B2', 'Sheet1!R1C1:R2C2', ' Sheet1!A1', 'Sheet1 !A1', ' A1', 'A1 ', '\tA1', 'Sheet1!A1\n', '"Q4 Budget"!A1', '‘Q4 Budget’!A1', '“Q4 Budget”!A1:B2', '`Q4`!A1'] }],
  ['workspace-id', { valid: ['0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', '0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'https://www.notion.so/Tasks-0f1e2d3c4b5a69788796a5b4c3d2e1f0?v=1'], invalid: ['0f1e2d3c', 'not-an-id', 'https://www.notion.so/Tasks'] }],
  ['spreadsheet-id', { valid: ['1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms', '12DzAQMgTcgeG-zJrfDxpUbFjlXcBq5ih', 'https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit#gid=0'], invalid: ['', 'Q3 budget', 'Sheet1!A1', 'https://docs.google.com/document/d/1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz/edit', 'https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml', 'https://www.notion.so/Tasks-0f1e2d3c4b5a69788796a5b4c3d2e1f0'] }],
  ['document-id', { valid: ['1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz', 'https://docs.google.com/document/d/1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz/edit'], invalid: ['', 'my notes.docx', 'https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit', 'https://docs.google.com/document/d/'] }],
  ['json-string', { valid: ['{}', '[1,2]', '"x"', 'null'], invalid: ['{nope', '', "{'a':1}"] }],
];

describe('validator formats', () => {
  it.each(cases)('%s', (name, { valid, invalid }) => {
    const check = formats[name]!;
    for (const v of valid) expect(check(v), `${name} should accept ${JSON.stringify(v)}`).toBe(true);
    for (const v of invalid) expect(check(v), `${name} should refuse ${JSON.stringify(v)}`).toBe(false);
  });

  it('iana-time-zone answers consistently for repeated lookups (cached)', () => {
    const check = formats['iana-time-zone']!;
    for (let i = 0; i < 3; i++) expect([check('US/Eastern'), check('Nowhere/Land')]).toEqual([true, false]);
  });

  it('date and date-time agree with the RFC 3339 grammar as a regular expression, on generated near-misses', () => {
    // The former implementations, kept as the reference: the hand-written readers must answer the same.
    const days = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    const real = (y: number, m: number, d: number) => m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : days[m]!);
    const dateRef = (v: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      return m !== null && real(+m[1]!, +m[2]!, +m[3]!);
    };
    const dateTimeRef = (v: string) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/.exec(v);
      if (m === null || !real(+m[1]!, +m[2]!, +m[3]!) || +m[4]! > 23 || +m[5]! > 59 || +m[6]! > 60) return false;
      return m[7] === undefined || (+m[8]! <= 23 && +m[9]! <= 59);
    };
    const two = fc.integer({ min: 0, max: 99 }).map((n) => String(n).padStart(2, '0'));
    const piece = fc.oneof(two, fc.constantFrom('', '0', '1a', ' ', '٣', '123'));
    const sep = (...xs: string[]) => fc.constantFrom(...xs);
    const stamp = fc
      .tuple(
        fc.oneof(fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')), fc.constantFrom('', '202', '20266')),
        sep('-', '/'), piece, sep('-', '-', ''), piece,
        sep('T', 't', ' ', ''), piece, sep(':', ':', '.'), piece, sep(':', ''), piece,
        fc.constantFrom('', '.', '.1', '.123456', '.x'),
        fc.oneof(fc.constantFrom('Z', 'z', '', 'Zx', '+', '-1:00'), fc.tuple(sep('+', '-'), piece, sep(':', ''), piece).map((p) => p.join(''))),
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(stamp, (v) => {
        expect(formats['date-time']!(v)).toBe(dateTimeRef(v));
        expect(formats.date!(v.slice(0, 10))).toBe(dateRef(v.slice(0, 10)));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe('what a refused date or date-time gets wrong', () => {
  const refusal = (start_datetime: string): string | undefined => {
    const result = validateCalendarCreateEvent({ summary: 'Planning', start_datetime });
    return result.ok ? undefined : result.violations.find((v) => v.pointer === '/start_datetime')?.message;
  };
  const closedate = (value: string): string | undefined => {
    const result = validateCrmDealCreate({ amount: 1, dealname: 'Deal', dealstage: 'appointmentscheduled', closedate: value });
    return result.ok ? undefined : result.violations.find((v) => v.pointer === '/closedate')?.message;
  };
  // calendar_create_event's start_datetime also takes a date alone (an all-day event): its format says so.
  const shape = 'start_datetime must be an RFC 3339 date-time with an offset, e.g. 2026-03-01T10:00:00+01:00, or a date alone, YYYY-MM-DD';
  const endRefusal = (end_datetime: string): string | undefined => {
    const result = validateCalendarUpdateEvent({ calendar_id: 'primary', event_id: 'ev1', end_datetime });
    return result.ok ? undefined : result.violations.find((v) => v.pointer === '/end_datetime')?.message;
  };

  it('says a day that is not in the calendar, a missing offset and a missing time, each with the fix', () => {
    expect(refusal('2026-02-30T10:00:00+01:00')).toBe(`${shape}; 2026-02-30 is not a day of the calendar`);
    expect(refusal('2026-13-01T10:00:00Z')).toBe(`${shape}; 2026-13-01 is not a day of the calendar`);
    expect(refusal('2026-03-02T10:00:00')).toBe(`${shape}; it has no offset: add the offset of the time zone it is meant in on that day (+01:00), or Z if it is meant in UTC`);
    expect(refusal('2026-03-02T10:00:00.250')).toBe(`${shape}; it has no offset: add the offset of the time zone it is meant in on that day (+01:00), or Z if it is meant in UTC`);
    // A date alone is an all-day event's start; where a time is needed (an end time), it is refused as lacking one.
    expect(refusal('2026-03-02')).toBeUndefined();
    expect(endRefusal('2026-03-02')).toBe('end_datetime must be an RFC 3339 date-time with an offset, e.g. 2026-03-01T10:00:00+01:00; it has a day but no time');
    expect(closedate('2025-02-29')).toBe('closedate must be a date YYYY-MM-DD, e.g. 2026-03-01; 2025-02-29 is not a day of the calendar');
    expect(closedate('2026-03-02T00:00:00Z')).toBe('closedate must be a date YYYY-MM-DD, e.g. 2026-03-01; give the day alone, without a time');
  });

  it('a day as people write it is told its readings year first, never guessed; a time after it only where the format takes one', () => {
    const year = 'is a day written as people write it: write it year first';
    expect(refusal('25.12.2026 09:00')).toBe(`${shape}; 25.12.2026 ${year}, 2026-12-25, then T, the time with seconds and its offset (e.g. T15:00:00+01:00)`);
    // A date alone is an all-day start here: no time asked for.
    expect(refusal('3/4/2026')).toBe(`${shape}; 3/4/2026 ${year}, 2026-03-04 (month first, as in the US) or 2026-04-03 (day first)`);
    expect(refusal('4/4/2026')).toBe(`${shape}; 4/4/2026 ${year}, 2026-04-04`);
    expect(closedate('12/31/2026')).toBe(`closedate must be a date YYYY-MM-DD, e.g. 2026-03-01; 12/31/2026 ${year}, 2026-12-31`);
    expect(endRefusal('12/31/2026')).toMatch(/; 12\/31\/2026 is a day written as people write it: write it year first, 2026-12-31, then T, the time/);
    // No reading is a day: nothing more said.
    expect(refusal('31/31/2026')).toBe(shape);
  });

  it('says what to write for a time given with a space for the T, without seconds or without an offset', () => {
    const offset = 'an offset (that of the time zone it is meant in on that day, e.g. +01:00, or Z if it is meant in UTC)';
    expect(refusal('2026-03-02 10:00')).toBe(`${shape}; it needs a T, not a space, between the day and the time, seconds (10:00:00, not 10:00) and ${offset}`);
    expect(refusal('2026-03-02T09:30')).toBe(`${shape}; it needs seconds (09:30:00, not 09:30) and ${offset}`);
    expect(refusal('2026-03-02T09:30+01:00')).toBe(`${shape}; it needs seconds (09:30:00, not 09:30)`);
    expect(refusal('2026-03-02 10:00:00Z')).toBe(`${shape}; it needs a T, not a space, between the day and the time`);
    expect(refusal('2026-03-02 10:00:00.5')).toBe(`${shape}; it needs a T, not a space, between the day and the time and ${offset}`);
    // What each message asks for is taken.
    for (const fixed of ['2026-03-02T10:00:00Z', '2026-03-02T09:30:00+01:00', '2026-03-02T10:00:00.5Z']) expect(refusal(fixed)).toBeUndefined();
  });

  it('says no more than the format when it cannot tell', () => {
    for (const value of ['tomorrow 10am', '2026-03-02 10:00 CET', '2026-03-02T25:00:00Z', '2026-03-02T10:00:00+1', '2026-03-02T10:00+1']) expect(refusal(value)).toBe(shape);
    expect(closedate('March 2')).toBe('closedate must be a date YYYY-MM-DD, e.g. 2026-03-01');
  });
});

describe('what a refused spreadsheet or document id gets wrong', () => {
  const sheetShape = "spreadsheet_id must be a spreadsheet id (letters, digits, - and _, e.g. 1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms) or the spreadsheet's URL, https://docs.google.com/spreadsheets/d/<id>/edit, or a drive.google.com link to it";
  const refusal = (spreadsheet_id: string): string | undefined => {
    const result = validateSheetsGetValues({ spreadsheet_id, range: 'A1' });
    return result.ok ? undefined : result.violations.find((v) => v.pointer === '/spreadsheet_id')?.message;
  };

  it('says what an id looks like, and names a Docs URL given for a spreadsheet and the reverse', () => {
    expect(refusal('Q3 budget')).toBe(sheetShape);
    expect(refusal('')).toBe(sheetShape);
    expect(refusal('https://docs.google.com/document/d/1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz/edit')).toBe(`${sheetShape}; it is the URL of a Google Docs document, not of a Google Sheets spreadsheet (the docs_ tools take it)`);
    const result = validateDocsUpdateDocument({ document_id: 'https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit#gid=0', requests: [{ insertText: { location: { index: 1 }, text: 'x' } }] });
    expect(result.ok ? [] : result.violations).toEqual([
      { pointer: '/document_id', keyword: 'format', message: expect.stringMatching(/^document_id must be a document id .*; it is the URL of a Google Sheets spreadsheet, not of a Google Docs document \(the sheets_ tools take it\)$/) },
    ]);
  });

  it('takes the URL of the right kind, and a Drive link to the file', () => {
    expect(refusal('https://docs.google.com/spreadsheets/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/edit#gid=0')).toBeUndefined();
    expect(refusal('https://drive.google.com/file/d/1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms/view?usp=sharing')).toBeUndefined();
    expect(refusal('https://drive.google.com/open?id=1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms')).toBeUndefined();
  });
});

describe('what a refused time zone gets wrong', () => {
  const shape = 'timezone must be an IANA time zone name, e.g. Europe/Paris';
  const refusal = (timezone: string): string | undefined => {
    const result = validateCalendarCreateEvent({ summary: 'Planning', start_datetime: '2026-03-02T10:00:00+01:00', timezone });
    return result.ok ? undefined : result.violations.find((v) => v.pointer === '/timezone')?.message;
  };

  it('names the zone whose last part was given alone, ignoring case, spaces read as underscores', () => {
    expect(refusal('Paris')).toBe(`${shape}; a zone's IANA name starts with its area: send Europe/Paris`);
    expect(refusal('new york')).toBe(`${shape}; a zone's IANA name starts with its area: send America/New_York`);
    expect(refusal('SAO PAULO')).toBe(`${shape}; a zone's IANA name starts with its area: send America/Sao_Paulo`);
    expect(formatProblem('iana-time-zone', ' Tokyo ')).toBe("; a zone's IANA name starts with its area: send Asia/Tokyo");
    // What it names is taken.
    for (const zone of ['Europe/Paris', 'America/New_York', 'America/Sao_Paulo', 'Asia/Tokyo']) expect(refusal(zone)).toBeUndefined();
  });

  it('names up to three zones when the text is the last part of several, in the order the runtime lists them', () => {
    const zones = ['America/Indiana/Vevay', 'Asia/Springfield', 'Europe/Springfield', 'Pacific/Springfield', 'America/Springfield'];
    expect(zoneProblem('springfield', zones.slice(0, 3))).toBe("; a zone's IANA name starts with its area: send the one meant, Asia/Springfield or Europe/Springfield");
    expect(zoneProblem('Springfield', zones.slice(0, 4))).toBe("; a zone's IANA name starts with its area: send the one meant, Asia/Springfield, Europe/Springfield or Pacific/Springfield");
    expect(zoneProblem('Springfield', zones)).toBe("; a zone's IANA name starts with its area: send the one meant, e.g. Asia/Springfield, Europe/Springfield or Pacific/Springfield");
    expect(zoneProblem('vevay', zones)).toBe("; a zone's IANA name starts with its area: send America/Indiana/Vevay");
  });

  it('suggests nothing it cannot find: no zone ends in the text, or the text is more than a last part', () => {
    for (const value of ['Atlantis', 'Mars/Olympus', 'Paris, France', 'Europe/Pariss', 'CET+1', '', '   ', '+01:00', 'Europe/New York']) expect(refusal(value)).toBe(shape);
    expect(zoneProblem('Paris', [])).toBe('');
  });
});

describe('notLater (the later_than rule)', () => {
  it.each([
    ['2026-03-01T10:00:00+01:00', '2026-03-01T09:00:00Z', true], // the same instant
    ['2026-03-01T09:59:59Z', '2026-03-01T10:00:00Z', true],
    ['2026-03-01T10:00:01Z', '2026-03-01T10:00:00Z', false],
    ['2026-03-02', '2026-03-01', false],
    ['2026-03-01', '2026-03-01', true],
    // Not compared when either fails its format (Date.parse reads 2026-02-30 as 2 March): the format says what is wrong.
    ['2026-02-30T00:00:00Z', '2026-03-02T00:00:00Z', false],
    ['2026-02-01T00:00:00', '2026-03-02T00:00:00Z', false],
    [undefined, '2026-03-02T00:00:00Z', false],
  ])('notLater(%j, %j) is %j', (later, earlier, want) => {
    expect(notLater(later, earlier)).toBe(want);
  });
});
