/**
 * One CSV cell (RFC 4180): quoted when it holds a quote, comma or line break.
 * A cell a spreadsheet would run as a formula (starting with = + - @, or a tab or
 * carriage return that some programs skip first) is prefixed with a single quote.
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows to CSV text: CRLF line ends, a final line end. */
export function toCsv(rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return rows.map((row) => row.map(csvCell).join(",")).join("\r\n") + (rows.length ? "\r\n" : "");
}
