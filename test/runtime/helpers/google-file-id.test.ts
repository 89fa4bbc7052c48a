import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { googleFileId, googleFileProblem, isGoogleFileId, readGoogleFile } from '../../../runtime/helpers/google-file-id.js';

const SHEET = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
const DOC = '1A2b3C4d5E6f7G8h9I0jKlMnOpQrStUvWxYz';

describe('googleFileId', () => {
  it.each([
    // Bare ids as Google hands them out: native files (44), uploaded files (33), the former Drive form (28).
    [SHEET, SHEET],
    ['12DzAQMgTcgeG-zJrfDxpUbFjlXcBq5ih', '12DzAQMgTcgeG-zJrfDxpUbFjlXcBq5ih'],
    ['0B4fk8L6brI_eX1U5Ui1Lb1FpVG8', '0B4fk8L6brI_eX1U5Ui1Lb1FpVG8'],
    [`https://docs.google.com/spreadsheets/d/${SHEET}/edit#gid=0`, SHEET],
    [`https://docs.google.com/spreadsheets/d/${SHEET}/edit?gid=123#gid=123`, SHEET],
    [`https://docs.google.com/spreadsheets/d/${SHEET}`, SHEET],
    [`https://docs.google.com/spreadsheets/d/${SHEET}/`, SHEET],
    [`https://docs.google.com/spreadsheets/d/${SHEET}/edit?usp=sharing`, SHEET],
    [`https://docs.google.com/spreadsheets/u/1/d/${SHEET}/edit`, SHEET],
    [`https://docs.google.com/a/example.com/spreadsheets/d/${SHEET}/edit`, SHEET],
    [`http://docs.google.com/spreadsheets/d/${SHEET}/htmlview`, SHEET],
    [`HTTPS://DOCS.GOOGLE.COM/spreadsheets/d/${SHEET}/edit`, SHEET],
    [`docs.google.com/spreadsheets/d/${SHEET}/edit`, SHEET],
    [` https://docs.google.com/spreadsheets/d/${SHEET}/edit\n`, SHEET],
    [` ${SHEET} `, SHEET],
    [`https://docs.google.com/document/d/${DOC}/edit?tab=t.0`, DOC],
    [`https://docs.google.com/document/d/${DOC}/edit#heading=h.abc`, DOC],
    // Google Drive links to the file, as the Share button and Drive's own pages give them.
    [`https://drive.google.com/file/d/${SHEET}/view?usp=sharing`, SHEET],
    [`https://drive.google.com/file/d/${DOC}/view`, DOC],
    [`https://drive.google.com/file/d/${SHEET}`, SHEET],
    [`https://drive.google.com/file/u/1/d/${SHEET}/view`, SHEET],
    [`https://drive.google.com/a/example.com/file/d/${SHEET}/view`, SHEET],
    [`drive.google.com/file/d/${SHEET}/edit`, SHEET],
    [`https://drive.google.com/open?id=${SHEET}`, SHEET],
    [`https://drive.google.com/open?id=${DOC}&usp=drive_fs`, DOC],
    [`https://drive.google.com/open?authuser=0&id=${SHEET}`, SHEET],
  ])('%s -> %s', (input, want) => {
    expect(googleFileId(input)).toBe(want);
  });

  it.each([
    'Q3 budget',
    'Sheet1!A1',
    '',
    `${SHEET}/edit`,
    `https://drive.google.com/drive/folders/${SHEET}`,
    'https://drive.google.com/drive/my-drive',
    'https://drive.google.com/file/d/',
    'https://drive.google.com/file/d/not%20an%20id/view',
    `https://drive.google.com/open?id=${SHEET}/edit`,
    'https://drive.google.com/open?id=',
    'https://drive.google.com/open',
    `https://drive.google.com/open?id=${SHEET}&id=${DOC}`,
    `https://drive.google.com/open/x?id=${SHEET}`,
    `https://drive.google.com/spreadsheets/d/${SHEET}/edit`,
    `https://docs.google.com/open?id=${SHEET}`,
    `https://drive.google.com.evil.example/file/d/${SHEET}/view`,
    `https://docs.google.com.evil.example/spreadsheets/d/${SHEET}/edit`,
    `https://evil.example/docs.google.com/spreadsheets/d/${SHEET}/edit`,
    'https://docs.google.com/spreadsheets/',
    'https://docs.google.com/spreadsheets/d/',
    'https://docs.google.com/spreadsheets/d/not%20an%20id/edit',
    `ftp://docs.google.com/spreadsheets/d/${SHEET}`,
    `https://docs.google.com/spreadsheets/x/${SHEET}`,
  ])('leaves %j unchanged, naming no file (the format refuses it)', (input) => {
    expect(googleFileId(input)).toBe(input);
    expect(isGoogleFileId('spreadsheets', input)).toBe(false);
    expect(isGoogleFileId('document', input)).toBe(false);
  });

  it('finds the id in any docs.google.com address built around a generated one, whatever follows it', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/).filter((s) => s !== 'e');
    const tail = fc.constantFrom('', '/', '/edit', '/edit#gid=0', '/edit?usp=sharing', '/view?x=1&y=2#z', '/copy');
    const lead = fc.constantFrom('https://docs.google.com/', 'http://docs.google.com/', 'docs.google.com/', 'https://docs.google.com/a/acme.example/');
    const account = fc.constantFrom('', 'u/0/', 'u/12/');
    fc.assert(
      fc.property(lead, fc.constantFrom('spreadsheets', 'document'), account, id, tail, (l, kind, u, i, t) => {
        const value = `${l}${kind}/${u}d/${i}${t}`;
        expect(googleFileId(value)).toBe(i);
        expect(readGoogleFile(value)).toEqual({ id: i, kind });
        expect(isGoogleFileId(kind as 'spreadsheets' | 'document', value)).toBe(true);
        expect(isGoogleFileId(kind === 'spreadsheets' ? 'document' : 'spreadsheets', value)).toBe(false);
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds the id in any Drive link built around a generated one, naming no kind: either tool family takes it', () => {
    const id = fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/);
    const lead = fc.constantFrom('https://drive.google.com/', 'http://drive.google.com/', 'drive.google.com/', 'https://drive.google.com/a/acme.example/');
    const query = fc.constantFrom('', '&usp=sharing', '&authuser=1&usp=drive_fs');
    const link = fc.oneof(
      fc.tuple(fc.constantFrom('', 'u/0/', 'u/12/'), id, fc.constantFrom('', '/', '/view', '/view?usp=sharing', '/edit#x', '/preview')).map(([u, i, t]) => [`file/${u}d/${i}${t}`, i] as const),
      fc.tuple(id, query, fc.boolean()).map(([i, q, idFirst]) => [idFirst ? `open?id=${i}${q}` : `open?${q.slice(1) || 'usp=sharing'}&id=${i}`, i] as const),
    );
    fc.assert(
      fc.property(lead, link, (l, [path, i]) => {
        const value = `${l}${path}`;
        expect(googleFileId(value)).toBe(i);
        expect(readGoogleFile(value)).toEqual({ id: i });
        expect(isGoogleFileId('spreadsheets', value)).toBe(true);
        expect(isGoogleFileId('document', value)).toBe(true);
        expect(googleFileProblem('spreadsheets', value)).toBe('');
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('googleFileProblem', () => {
  it('names the mix-up of a Docs URL for a spreadsheet and the reverse, and which tools take it', () => {
    expect(googleFileProblem('spreadsheets', `https://docs.google.com/document/d/${DOC}/edit`)).toBe(
      '; it is the URL of a Google Docs document, not of a Google Sheets spreadsheet (the docs_ tools take it)',
    );
    expect(googleFileProblem('document', `https://docs.google.com/spreadsheets/d/${SHEET}/edit#gid=0`)).toBe(
      '; it is the URL of a Google Sheets spreadsheet, not of a Google Docs document (the sheets_ tools take it)',
    );
    expect(googleFileProblem('document', `https://docs.google.com/presentation/d/${DOC}/edit`)).toBe('; it is the URL of a Google Slides presentation, not of a Google Docs document');
  });

  it("says a published copy's address carries no id", () => {
    expect(googleFileProblem('spreadsheets', 'https://docs.google.com/spreadsheets/d/e/2PACX-1vQ3s2PxWzA/pubhtml')).toMatch(/^; it is the address of a published copy .*\(\/spreadsheets\/d\/<id>\/edit\)$/);
    expect(isGoogleFileId('spreadsheets', 'https://docs.google.com/spreadsheets/d/e/2PACX-1vQ3s2PxWzA/pubhtml')).toBe(false);
  });

  it('adds nothing where the format description says it all', () => {
    for (const value of ['Q3 budget', '', 'https://drive.google.com/drive/my-drive', `https://drive.google.com/drive/folders/${SHEET}`]) expect(googleFileProblem('spreadsheets', value)).toBe('');
  });
});
