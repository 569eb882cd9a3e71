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

/** One parsed CSV record and the 1-based line it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export type CsvParseResult =
  | { ok: true; records: CsvRecord[] }
  | { ok: false; code: "csv.unterminatedQuote"; line: number };

/**
 * Parses CSV text (RFC 4180): a leading BOM is dropped, CRLF, LF and lone CR end records, quoted
 * fields may hold commas, doubled quotes and line breaks. Blank lines are skipped. Cells are
 * returned as written (the formula guard of `csvCell` is not undone).
 */
export function parseCsv(text: string): CsvParseResult {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let fieldWasQuoted = false;
  const endRecord = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== "" || fieldWasQuoted) records.push({ line: recordLine, fields });
    fields = [];
    field = "";
    fieldWasQuoted = false;
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (quoted) {
      if (ch === '"') {
        if (source[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
        }
      } else {
        if (ch === "\n" || (ch === "\r" && source[i + 1] !== "\n")) line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === "") {
      quoted = true;
      fieldWasQuoted = true;
    } else if (ch === ",") {
      fields.push(field);
      field = "";
    } else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && source[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      field += ch;
    }
  }
  if (quoted) return { ok: false, code: "csv.unterminatedQuote", line: recordLine };
  if (field !== "" || fields.length > 0 || fieldWasQuoted) endRecord();
  return { ok: true, records };
}

/** An uploaded CSV file's header and rows, or why it is not one. */
export type CsvFileResult =
  | {
      ok: true;
      rows: CsvRecord[];
      /** The index of the first header (trimmed, case-insensitive) among the names; -1 if none. */
      column(...names: string[]): number;
    }
  | { ok: false; error: { code: "notText" } | { code: "unterminatedQuote"; line: number } | { code: "empty" } };

/**
 * Reads an uploaded file as a CSV with a header row: strict UTF-8 without NUL bytes (binary,
 * UTF-16 or Latin-1 with accents is "notText"), then `parseCsv`.
 */
export function readCsvFile(bytes: Uint8Array): CsvFileResult {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { ok: false, error: { code: "notText" } };
  }
  if (text.includes("\0")) return { ok: false, error: { code: "notText" } };
  const parsed = parseCsv(text);
  if (!parsed.ok) return { ok: false, error: { code: "unterminatedQuote", line: parsed.line } };
  const [header, ...rows] = parsed.records;
  if (!header) return { ok: false, error: { code: "empty" } };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  return {
    ok: true,
    rows,
    column(...candidates) {
      for (const name of candidates) {
        const index = names.indexOf(name);
        if (index >= 0) return index;
      }
      return -1;
    },
  };
}

/** A cell's value as a problem report shows it: at most 80 characters. */
export const shortenProblemValue = (value: string) => (value.length > 80 ? `${value.slice(0, 79)}…` : value);
