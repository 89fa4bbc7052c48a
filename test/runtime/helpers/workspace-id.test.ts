import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWorkspaceId, workspaceId } from '../../../runtime/helpers/workspace-id.js';

const ID = 'd9824bdc-8445-4327-be8b-5b47500af6ce';
const HEX = 'd9824bdc84454327be8b5b47500af6ce';

/**
 * The former implementation, which parsed addresses with the WHATWG URL parser: the hand-written cut must find the
 * same id in every well-formed address.
 */
function viaUrlParser(id: string): string {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return id.toLowerCase();
  let candidate = id;
  if (/^https?:\/\//i.test(id)) {
    try {
      candidate = new URL(id).pathname;
    } catch {
      return id;
    }
  }
  const m = /([0-9a-f]{32})$/i.exec(candidate.replace(/-/g, ''));
  if (!m || !m[1]) return id;
  const h = m[1].toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

describe('workspaceId', () => {
  it.each([
    [ID, ID],
    [ID.toUpperCase(), ID],
    [HEX, ID],
    [HEX.toUpperCase(), ID],
    [`Tasks-${HEX}`, ID],
    [`https://www.notion.so/acme/Tasks-${HEX}`, ID],
    [`https://www.notion.so/acme/Tasks-${HEX}?v=0a1b2c3d4e5f60718293a4b5c6d7e8f9`, ID],
    [`https://www.notion.so/Tasks-${HEX}#0a1b2c3d4e5f60718293a4b5c6d7e8f9`, ID],
    [`https://www.notion.so/Tasks-${HEX}?v=1#frag`, ID],
    [`HTTPS://WWW.NOTION.SO/TASKS-${HEX.toUpperCase()}`, ID],
    [`http://notion.so/${ID}`, ID],
    [`https://www.notion.so/acme/${HEX}?pvs=4`, ID],
    [`https://www.notion.so\\acme\\Tasks-${HEX}`, ID],
    [`https:///www.notion.so/Tasks-${HEX}`, ID],
    [`https://www.notion.so/Tasks-${HEX} \n`, ID],
    [`https://www.notion.so/Tasks-${HEX.slice(0, 10)}\t${HEX.slice(10)}`, ID],
  ])('%s -> the hyphenated id', (input, want) => {
    expect(workspaceId(input)).toBe(want);
    expect(isWorkspaceId(input)).toBe(true);
  });

  it.each([
    ['0f1e2d3c'],
    ['not-an-id'],
    [''],
    ['https://www.notion.so/Tasks'],
    ['https://www.notion.so/'],
    ['https://'],
    [`https://www.notion.so/Tasks-${HEX}/`],
    [`https://www.notion.so/Tasks-${HEX}/comments`],
    [`https://www.notion.so?v=${HEX}`],
    [`https://www.notion.so/Tasks#${HEX}`],
    [`https://www.notion.so/Tasks?p=${HEX}`],
    [`https://${HEX}`],
    [`https://www.notion.so/Tasks-${HEX.slice(1)}`],
    [`https://www.notion.so/Tasks-${HEX.slice(0, 31)}g`],
  ])('%s is not an id and comes back unchanged', (input) => {
    expect(workspaceId(input)).toBe(input);
    expect(isWorkspaceId(input)).toBe(false);
  });

  it('finds the same id as the URL parser in generated addresses', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_.~]{0,8}$/);
    const hex = fc.stringMatching(/^[0-9a-fA-F]{28,34}$/);
    const segment = fc.oneof(word, hex, fc.tuple(word, hex).map(([w, h]) => `${w}-${h}`), fc.array(fc.oneof(word, hex), { maxLength: 4 }).map((p) => p.join('-')));
    const address = fc
      .record({
        scheme: fc.constantFrom('https://', 'http://', 'HTTPS://', 'https:///'),
        host: fc.constantFrom('www.notion.so', 'notion.so', 'acme.notion.site', 'localhost:3000'),
        segments: fc.array(segment, { maxLength: 4 }),
        slash: fc.boolean(),
        query: fc.option(fc.oneof(word, hex).map((v) => `?v=${v}`), { nil: '' }),
        fragment: fc.option(fc.oneof(word, hex).map((v) => `#${v}`), { nil: '' }),
        trailing: fc.constantFrom('', ' ', '\n'),
      })
      .map((a) => `${a.scheme}${a.host}${a.segments.map((s) => `/${s}`).join('')}${a.slash ? '/' : ''}${a.query}${a.fragment}${a.trailing}`);
    fc.assert(
      fc.property(fc.oneof(address, segment), (input) => {
        expect(workspaceId(input)).toBe(viaUrlParser(input));
      }),
      { numRuns: 3000 },
    );
  });
});
