import { parseCsv } from "../../lib/csv.ts";
import {
  checkTarget,
  fromKey,
  normalizeFrom,
  REDIRECT_IMPORT_MAX_ROWS,
  type RedirectStatus,
} from "../../lib/redirects.ts";
import type { RedirectCandidate } from "../repos/redirects.server.ts";

// Reading a CSV of redirects (ours, or one written by hand or by another tool): which rows
// can be imported and why the others cannot. Nothing here touches the database;
// `repos/redirects.server.ts` (`importRedirects`) writes and refuses loops.

/** How many problem rows the report names. */
export const REDIRECT_IMPORT_MAX_PROBLEMS = 20;
const PROBLEM_VALUE_MAX = 80;

export type RedirectRowProblem =
  | "fromInvalid"
  | "fromReserved"
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

function decodeText(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  }
}

const TRUE_WORDS = new Set(["1", "true", "yes", "y", "external"]);

export const shortenProblemValue = (value: string) =>
  value.length > PROBLEM_VALUE_MAX ? `${value.slice(0, PROBLEM_VALUE_MAX - 1)}…` : value;

/** A cell as written, without the quote our export puts before a cell a spreadsheet would run. */
const cellText = (value: string) => (value.startsWith("'") ? value.slice(1) : value).trim();

/**
 * Reads a CSV whose header names `from` and `to` (also `source`/`target`, `old`/`new`),
 * and optionally `status` (301 or 302; empty is 301), `external` (1/true/yes: the row may
 * send to an https:// URL) and `note`. A row repeating an earlier from-path is skipped.
 */
export function readRedirectCsv(bytes: Uint8Array): RedirectFileResult {
  const text = decodeText(bytes);
  if (text === null) return { ok: false, error: { code: "notText" } };
  const parsed = parseCsv(text);
  if (!parsed.ok) return { ok: false, error: { code: "unterminatedQuote", line: parsed.line } };
  const [header, ...rows] = parsed.records;
  if (!header) return { ok: false, error: { code: "empty" } };
  const names = header.fields.map((f) => f.trim().toLowerCase());
  const column = (...candidates: string[]) => {
    for (const name of candidates) {
      const index = names.indexOf(name);
      if (index >= 0) return index;
    }
    return -1;
  };
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
