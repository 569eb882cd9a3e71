import { readCsvFile, shortenProblemValue } from "../../lib/csv.ts";
import {
  checkTarget,
  fromKey,
  normalizeFrom,
  REDIRECT_IMPORT_MAX_ROWS,
  type RedirectStatus,
} from "../../lib/redirects.ts";
import type { RedirectCandidate } from "./redirects.server.ts";

// Reading a CSV of redirects (ours, or one written by hand or by another tool): which rows
// can be imported and why the others cannot. Nothing here touches the database;
// `redirects/redirects.server.ts` (`importRedirects`) writes and refuses loops.

/** How many problem rows the report names. */
export const REDIRECT_IMPORT_MAX_PROBLEMS = 20;

export type RedirectRowProblem =
  | "fromInvalid"
  | "fromReserved"
  | "fromLive"
  | "toInvalid"
  | "toExternal"
  | "status"
  | "duplicate"
  | "self"
  | "loop"
  | "fromTaken"
  | "unchanged";

export interface RedirectProblem {
  line: number;
  reason: RedirectRowProblem;
  value: string;
}

export type RedirectFileError =
  | { code: "notText" }
  | { code: "empty" }
  | { code: "noColumns" }
  | { code: "unterminatedQuote"; line: number }
  | { code: "tooManyRows"; max: number; rows: number };

export type RedirectFileResult =
  | { ok: true; candidates: RedirectCandidate[]; skipped: number; problems: RedirectProblem[] }
  | { ok: false; error: RedirectFileError };

const TRUE_WORDS = new Set(["1", "true", "yes", "y", "external"]);

/** A cell as written, without the quote our export puts before a cell a spreadsheet would run. */
const cellText = (value: string) => (value.startsWith("'") ? value.slice(1) : value).trim();

/**
 * Reads a CSV whose header names `from` and `to` (also `source`/`target`, `old`/`new`),
 * and optionally `status` (301 or 302; empty is 301), `external` (1/true/yes: the row may
 * send to an https:// URL) and `note`. A row repeating an earlier from-path is skipped.
 */
export function readRedirectCsv(bytes: Uint8Array): RedirectFileResult {
  const file = readCsvFile(bytes);
  if (!file.ok) return file;
  const { rows, column } = file;
  const fromCol = column("from", "source", "old", "from_path");
  const toCol = column("to", "target", "new", "to_path");
  if (fromCol < 0 || toCol < 0) return { ok: false, error: { code: "noColumns" } };
  if (rows.length > REDIRECT_IMPORT_MAX_ROWS) {
    return { ok: false, error: { code: "tooManyRows", max: REDIRECT_IMPORT_MAX_ROWS, rows: rows.length } };
  }
  const statusCol = column("status", "code");
  const externalCol = column("external");
  const noteCol = column("note");
  const cell = (fields: string[], index: number) => (index >= 0 ? cellText(fields[index] ?? "") : "");

  const out: RedirectCandidate[] = [];
  const problems: RedirectProblem[] = [];
  let skipped = 0;
  const problem = (line: number, reason: RedirectRowProblem, value: string) => {
    skipped += 1;
    if (problems.length < REDIRECT_IMPORT_MAX_PROBLEMS)
      problems.push({ line, reason, value: shortenProblemValue(value) });
  };
  const seen = new Set<string>();
  for (const { line, fields } of rows) {
    if (fields.every((f) => f.trim() === "")) continue;
    const rawFrom = cell(fields, fromCol);
    const from = normalizeFrom(rawFrom);
    if (!from.ok) {
      problem(line, from.error, rawFrom);
      continue;
    }
    const external = TRUE_WORDS.has(cell(fields, externalCol).toLowerCase());
    const rawTo = cell(fields, toCol);
    const to = checkTarget(rawTo, external);
    if (!to.ok) {
      problem(line, to.error, rawTo);
      continue;
    }
    const rawStatus = cell(fields, statusCol);
    if (rawStatus !== "" && rawStatus !== "301" && rawStatus !== "302") {
      problem(line, "status", rawStatus);
      continue;
    }
    const key = fromKey(from);
    if (seen.has(key)) {
      problem(line, "duplicate", rawFrom);
      continue;
    }
    seen.add(key);
    const note = noteCol >= 0 ? cell(fields, noteCol).slice(0, 200) : undefined;
    out.push({
      line,
      fromPath: from.path,
      fromQuery: from.query,
      to: to.target,
      status: (rawStatus === "302" ? 302 : 301) satisfies RedirectStatus,
      external,
      ...(note !== undefined ? { note } : {}),
    });
  }
  return { ok: true, candidates: out, skipped, problems };
}
