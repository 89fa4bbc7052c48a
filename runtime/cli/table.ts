/** A plain text table for list output (use `--json` for machines). */
export function formatTable<T extends object>(rows: readonly T[], columns: readonly (keyof T & string)[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (row: T, col: keyof T & string): string => {
    const value = row[col];
    const text = Array.isArray(value) ? value.join(' ') : value === null || value === undefined ? '' : String(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const widths = columns.map((col) => Math.max(col.length, ...rows.map((row) => cell(row, col).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ').trimEnd();
  return [line([...columns]), line(widths.map((w) => '-'.repeat(w))), ...rows.map((row) => line(columns.map((col) => cell(row, col))))].join('\n');
}
