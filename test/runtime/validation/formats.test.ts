import { describe, expect, it } from 'vitest';
import { formats } from '../../../runtime/validation/formats.js';

const cases: Array<[string, { valid: string[]; invalid: string[] }]> = [
  ['date-time', { valid: ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123+01:00', '2024-02-29t23:59:60-05:30'], invalid: ['2026-03-01T10:00:00', '2026-03-01 10:00:00Z', '2026-02-30T10:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T10:00:00+1:00'] }],
  ['date', { valid: ['2026-03-01', '2024-02-29', '2000-02-29'], invalid: ['2026-3-1', '2023-02-29', '1900-02-29', '2026-13-01', '2026-00-10', '20260301'] }],
  ['email', { valid: ['a@example.org', 'first.last+tag@sub.example.co'], invalid: ['nope', 'a@', '@b.org', 'a b@c.org'] }],
  ['uri', { valid: ['https://example.org/x?y=1', 'mailto:a@b.org'], invalid: ['/relative', 'example.org', 'https://exa mple.org'] }],
  ['iana-time-zone', { valid: ['Europe/Paris', 'UTC', 'America/Argentina/Buenos_Aires', 'US/Eastern'], invalid: ['Mars/Olympus', '+01:00', 'Europe/', ''] }],
  ['a1-range', { valid: ['A1', 'A1:C10', 'A:C', '2:4', 'Sheet1!A1:B2', "'My Sheet'!A1", "'It''s'!B:B", 'Sheet1', 'A1:C'], invalid: ['A1:B2:C3', 'My Sheet!A1', "'Open!A1", '!A1', ''] }],
  ['workspace-id', { valid: ['0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0', '0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'https://www.notion.so/Tasks-0f1e2d3c4b5a69788796a5b4c3d2e1f0?v=1'], invalid: ['0f1e2d3c', 'not-an-id', 'https://www.notion.so/Tasks'] }],
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
});
