/**
 * Tables in a document body, with the Docs API's index rules: `insertTable` inserts a newline before the table, so
 * the table starts at the location's index + 1; a table takes one index, each row one, each cell one plus its
 * content. Rows and columns are addressed by a `tableCellLocation` (the table's start index, a row and a column).
 * @see https://developers.google.com/docs/api/how-tos/tables
 * @see https://developers.google.com/docs/api/reference/rest/v1/documents/request#InsertTableRequest
 */
import { GoogleApiError, valueText } from '../google-common/errors.js';
import { isRecord } from '../google-common/request.js';
import { DEFAULT_PARAGRAPH, type Cell, type DocumentBody, type Slot, type Table } from './document-body.js';

const bad = (message: string): GoogleApiError => new GoogleApiError(400, message);

/** The slots of a new empty cell: its start and one empty paragraph. */
function cellSlots(table: Table, cell: Cell): Slot[] {
  return [
    { kind: 'cell', ch: '', text: {}, table, cell },
    { kind: 'text', ch: '\n', text: {}, para: { ...DEFAULT_PARAGRAPH }, table, cell },
  ];
}

function rowSlots(table: Table, row: Cell[]): Slot[] {
  return [{ kind: 'row', ch: '', text: {}, table }, ...row.flatMap((cell) => cellSlots(table, cell))];
}

/** Inserts an empty rows x columns table before `index` (inside a body paragraph), after a new newline. */
export function insertTable(body: DocumentBody, index: number, rows: number, columns: number): void {
  body.insertText(index, '\n');
  const table: Table = { rows: [] };
  table.rows = Array.from({ length: rows }, () => Array.from({ length: columns }, () => ({ table })));
  const slots: Slot[] = [{ kind: 'table', ch: '', text: {}, table }, ...table.rows.flatMap((row) => rowSlots(table, row))];
  body.slots.splice(index, 0, ...slots);
}

/** Slot positions [start, end) of each row and cell of a table, computed from the slots. */
function layout(body: DocumentBody, table: Table): { tableStart: number; tableEnd: number; rows: Array<{ start: number; end: number; cells: Array<{ start: number; end: number }> }> } {
  const tableStart = body.slots.findIndex((s) => s.kind === 'table' && s.table === table);
  let i = tableStart + 1;
  const rows = table.rows.map((row) => {
    const start = i++;
    const cells = row.map((cell) => {
      const cellStart = i++;
      while (i < body.slots.length && body.slots[i]?.cell === cell && body.slots[i]?.kind !== 'cell') i++;
      return { start: cellStart, end: i };
    });
    return { start, end: i, cells };
  });
  return { tableStart, tableEnd: i, rows };
}

/** The table whose start is at a document index, as `tableStartLocation.index` names it. */
function tableAt(body: DocumentBody, args: Record<string, unknown>, where: string): { table: Table; row: number; column: number } {
  const loc = isRecord(args.tableCellLocation) ? args.tableCellLocation : undefined;
  const start = loc && isRecord(loc.tableStartLocation) ? loc.tableStartLocation.index : undefined;
  if (typeof start !== 'number') throw bad(`Invalid ${where}: tableCellLocation.tableStartLocation.index is required.`);
  const slot = body.slotAt(start);
  if (!slot || slot.kind !== 'table' || !slot.table) throw bad(`Invalid ${where}: Invalid table start location. Must specify the start index of the table.`);
  const row = loc?.rowIndex ?? 0;
  const column = loc?.columnIndex ?? 0;
  if (typeof row !== 'number' || !Number.isInteger(row) || row < 0 || row >= slot.table.rows.length) throw bad(`Invalid ${where}: Invalid row index ${valueText(row)}.`);
  if (typeof column !== 'number' || !Number.isInteger(column) || column < 0 || column >= (slot.table.rows[0]?.length ?? 0)) {
    throw bad(`Invalid ${where}: Invalid column index ${valueText(column)}.`);
  }
  return { table: slot.table, row, column };
}

export function insertTableRow(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const { table, row } = tableAt(body, args, where);
  const below = args.insertBelow === true;
  const at = below ? row + 1 : row;
  const cells: Cell[] = (table.rows[0] ?? []).map(() => ({ table }));
  const lay = layout(body, table);
  const position = at < lay.rows.length ? (lay.rows[at] as { start: number }).start : lay.tableEnd;
  body.slots.splice(position, 0, ...rowSlots(table, cells));
  table.rows.splice(at, 0, cells);
}

export function insertTableColumn(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const { table, column } = tableAt(body, args, where);
  const right = args.insertRight === true;
  const at = right ? column + 1 : column;
  const lay = layout(body, table);
  // Right to left so the earlier rows' positions stay valid.
  for (let r = table.rows.length - 1; r >= 0; r--) {
    const rowLayout = lay.rows[r] as { end: number; cells: Array<{ start: number }> };
    const cell: Cell = { table };
    const position = at < rowLayout.cells.length ? (rowLayout.cells[at] as { start: number }).start : rowLayout.end;
    body.slots.splice(position, 0, ...cellSlots(table, cell));
    (table.rows[r] as Cell[]).splice(at, 0, cell);
  }
}

export function deleteTableRow(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const { table, row } = tableAt(body, args, where);
  // The sandbox keeps a table at least one row wide; deleting the whole table is a deleteContentRange over it.
  if (table.rows.length === 1) throw bad(`Invalid ${where}: Cannot delete the only row of a table; delete the table instead.`);
  const span = layout(body, table).rows[row] as { start: number; end: number };
  body.slots.splice(span.start, span.end - span.start);
  table.rows.splice(row, 1);
}

export function deleteTableColumn(body: DocumentBody, args: Record<string, unknown>, where: string): void {
  const { table, column } = tableAt(body, args, where);
  if ((table.rows[0]?.length ?? 0) === 1) throw bad(`Invalid ${where}: Cannot delete the only column of a table; delete the table instead.`);
  const lay = layout(body, table);
  for (let r = table.rows.length - 1; r >= 0; r--) {
    const span = (lay.rows[r] as { cells: Array<{ start: number; end: number }> }).cells[column] as { start: number; end: number };
    body.slots.splice(span.start, span.end - span.start);
    (table.rows[r] as Cell[]).splice(column, 1);
  }
}

/**
 * Checks a deletion range against the structure, as Docs refuses deletions that would break it: a range may lie in
 * one cell's content (not taking the cell's last newline) or in the body around whole tables, but may not cut into
 * a table, cross a cell boundary, or take the newline before a table.
 */
export function checkDeletion(body: DocumentBody, start: number, end: number, where: string): void {
  const slots = body.slots;
  const a = start - 1;
  const b = end - 1;
  const cell = slots[a]?.cell;
  if (cell && slots[a]?.kind !== 'cell' && slots.slice(a, b).every((s) => s.cell === cell && s.kind !== 'cell')) {
    const last = slots[b - 1] as Slot;
    if (last.kind === 'text' && last.ch === '\n' && slots[b]?.cell !== cell) {
      throw bad(`Invalid ${where}: Invalid deletion range. Cannot delete the last newline character of a table cell.`);
    }
    return;
  }
  for (let i = a; i < b; i++) {
    const table = slots[i]?.table;
    if (!table) continue;
    const lay = layout(body, table);
    if (lay.tableStart < a || lay.tableEnd > b) {
      throw bad(`Invalid ${where}: Invalid deletion range. A deletion must cover whole tables or lie within one table cell.`);
    }
    i = lay.tableEnd - 1;
  }
  const last = slots[b - 1] as Slot;
  if (last.kind === 'text' && last.ch === '\n' && slots[b]?.kind === 'table') {
    throw bad(`Invalid ${where}: Invalid deletion range. Cannot delete the newline character before a table.`);
  }
}
