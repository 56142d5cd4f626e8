/**
 * One CSV writer for every export (RFC 4180: CRLF rows, fields quoted when they hold a comma, quote or line break).
 * Cells that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) get a leading apostrophe
 * (OWASP CSV injection), except plain numbers such as -12.50.
 */
export type CsvCell = string | number | boolean | null | undefined | Date;

function cell(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  let s = v instanceof Date ? v.toISOString() : String(v);
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One row with its CRLF: a streamed export writes these one after another (decision 0228). */
export function csvRow(cells: CsvCell[]): string {
  return `${cells.map(cell).join(',')}\r\n`;
}

export function toCsv(header: string[], rows: CsvCell[][]): string {
  return [header, ...rows].map(csvRow).join('');
}
