/**
 * `sheetsLinkedTab`: the pre-check of the Sheets values tools for a spreadsheet given by the address of one of its
 * tabs. The address a user copies from the browser names the tab on screen (`/edit?gid=<sheetId>#gid=<sheetId>`), but
 * the tools send only the spreadsheet's id; a range that names no sheet (`A1:C2`, `!A1`) is on the spreadsheet's first
 * visible sheet, which Google reads or writes without a word. Asked for "the total of this sheet" with the address of
 * its December tab, a model sending `C:C` would get November's figures.
 *
 * So, only when `spreadsheet_id` is such an address with a `gid` and a range names no sheet, the spreadsheet's sheets
 * are read (`GET /v4/spreadsheets/{id}`, cached per account for a short time, read again for a `gid` not found) and, when the address's tab is not the
 * first visible sheet, that range is refused with the range naming the tab (and the first sheet), to send as the
 * caller means it. A `gid` no sheet has (a tab since deleted) is left to Google's reading.
 * @see https://developers.google.com/sheets/api/guides/concepts#cell
 */
import { readGoogleFile } from '../helpers/google-file-id.js';
import { buildPath } from '../http/path.js';
import type { PrecheckIO, Violation } from '../types.js';
import { a1Cells } from '../validation/formats.js';
import { throwViolations } from './workspace-columns.js';

/** The inputs this pre-check reads: the Sheets values tools name one range, sheets_clear_values several. */
export interface SheetsLinkedTabInput {
  spreadsheet_id: string;
  range?: string;
  ranges?: string[];
}

interface Tab {
  sheetId: number;
  title: string;
  index: number;
  hidden: boolean;
}

/** The `gid` of a spreadsheet's address (in its query or after `#`), or undefined. */
function addressGid(value: string): number | undefined {
  if (readGoogleFile(value)?.kind !== 'spreadsheets') return undefined;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(value.trim()) ? value.trim() : `https://${value.trim()}`);
  } catch {
    return undefined;
  }
  const gid = new URLSearchParams(url.hash.slice(1)).get('gid') ?? url.searchParams.get('gid');
  return gid !== null && /^\d+$/.test(gid) ? Number(gid) : undefined;
}

/** The cells of a range that names no sheet (`A1:C2`, `!A1`, `''!A1`), or undefined when it names one. */
function cellsWithoutSheet(range: string): string | undefined {
  const cells = range.replace(/^(?:'')?!/, '');
  return a1Cells(cells) ? cells : undefined;
}

/** A sheet's title as a range names it: always quoted, a quote doubled. */
function quoted(title: string): string {
  return `'${title.replaceAll("'", "''")}'`;
}

async function tabs(io: PrecheckIO, id: string, fresh = false): Promise<Tab[]> {
  const key = `sheets:tabs:${id}`;
  const cached = fresh ? undefined : (io.cache.get(key) as Tab[] | undefined);
  if (cached !== undefined) return cached;
  const book = (await io.get(buildPath('/v4/spreadsheets/{spreadsheet_id}', { spreadsheet_id: id }))) as { sheets?: Array<{ properties?: Record<string, unknown> }> };
  const found: Tab[] = (book.sheets ?? []).flatMap(({ properties: p = {} }) =>
    typeof p.sheetId === 'number' && typeof p.title === 'string' ? [{ sheetId: p.sheetId, title: p.title, index: typeof p.index === 'number' ? p.index : 0, hidden: p.hidden === true }] : [],
  );
  io.cache.set(key, found);
  return found;
}

export async function sheetsLinkedTab<I extends SheetsLinkedTabInput>(input: I, io: PrecheckIO): Promise<I> {
  const gid = addressGid(input.spreadsheet_id);
  if (gid === undefined) return input;
  const unnamed: Array<{ pointer: string; name: string; cells: string }> = [];
  const one = input.range === undefined ? undefined : cellsWithoutSheet(input.range);
  if (one !== undefined) unnamed.push({ pointer: '/range', name: 'range', cells: one });
  (input.ranges ?? []).forEach((r, i) => {
    const cells = cellsWithoutSheet(r);
    if (cells !== undefined) unnamed.push({ pointer: `/ranges/${i}`, name: `ranges[${i}]`, cells });
  });
  if (unnamed.length === 0) return input;
  const id = readGoogleFile(input.spreadsheet_id)!.id!;
  let all = await tabs(io, id);
  // A tab added since the sheets were read (and cached) is read again before it is taken for a deleted one.
  if (!all.some((t) => t.sheetId === gid)) all = await tabs(io, id, true);
  const linked = all.find((t) => t.sheetId === gid);
  const first = all.filter((t) => !t.hidden).sort((a, b) => a.index - b.index)[0];
  if (linked === undefined || first === undefined || linked.sheetId === first.sheetId) return input;
  const violations: Violation[] = unnamed.map(({ pointer, name, cells }) => ({
    pointer,
    keyword: 'linked_tab',
    message:
      `${name} names no sheet, so it is on the first visible sheet, ${quoted(first.title)}, but spreadsheet_id is the address of the tab ${quoted(linked.title)} (gid=${gid}): ` +
      `for that tab send ${quoted(linked.title)}!${cells} (for the first, ${quoted(first.title)}!${cells})`,
  }));
  throwViolations(violations);
  return input;
}
