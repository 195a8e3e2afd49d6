/**
 * One CSV cell: quoted when needed, and a cell a spreadsheet would run as a formula (starting with
 * = + - @, tab or carriage return) gets a leading apostrophe (CSV injection).
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRow = (values: unknown[]) => `${values.map(csvCell).join(",")}\r\n`;
