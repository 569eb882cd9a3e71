import { IMPORT_MAX_ROWS, type ImportDefaultLanguages } from "../../lib/admin-users.ts";
import { readCsvFile, shortenProblemValue } from "../../lib/csv.ts";
import { emailOnlySchema } from "../../lib/schemas/auth.ts";
import type { Locale, SubscriberLanguages } from "../db/schema.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";

// Reading a subscriber list someone exported elsewhere (Ghost's members export, our own
// CSV export, a spreadsheet): which rows become subscribers and why the others do not.
// Nothing here touches the database; `newsletter/subscriber-import.server.ts` writes.

/** How many problem rows the report names. */
export const IMPORT_MAX_PROBLEMS = 20;
/** A quoted cell in a problem is cut to this many characters. */

/** A row that becomes a subscriber unless the address is already known. */
export interface ImportCandidate {
  line: number;
  /** Normalised: trimmed, lower-case. */
  email: string;
  languages: SubscriberLanguages;
  /** Their one language, or the one read first of both. */
  locale: Locale;
  /** From `created_at` when it parses and is not in the future; else the import's time. */
  createdAt: string | null;
}

export type ImportProblemReason = "emailMissing" | "emailInvalid" | "languageUnknown";

/** A row skipped as invalid, for the report. */
export interface ImportProblem {
  line: number;
  reason: ImportProblemReason;
  /** The offending cell, shortened. */
  value: string;
}

/** Why a whole file is refused (nothing is imported). */
export type ImportFileError =
  | { code: "notText" }
  | { code: "empty" }
  | { code: "noEmailColumn" }
  | { code: "unterminatedQuote"; line: number }
  | { code: "tooManyRows"; max: number; rows: number };

export interface ImportFileRead {
  candidates: ImportCandidate[];
  /** Rows repeating an address seen earlier in the file. */
  duplicates: number;
  /** Rows whose `subscribed_to_emails` is false. */
  notSubscribed: number;
  /** Rows with no usable address or an unknown language. */
  invalid: number;
  /** The first IMPORT_MAX_PROBLEMS invalid rows. */
  problems: ImportProblem[];
}

export type ImportFileResult = ({ ok: true } & ImportFileRead) | { ok: false; error: ImportFileError };

const FALSE_WORDS = new Set(["false", "0", "no", "n"]);

/** "en", "english", "en-US", "zh", "中文", "zh_CN", "both"… to a choice; null when unknown. */
function languagesOf(value: string): SubscriberLanguages | null {
  const v = value.trim().toLowerCase();
  if (v === "both" || v === "all" || v === "en,zh" || v === "zh,en" || v === "en+zh") return "both";
  if (v === "english" || /^en([-_][a-z0-9]+)*$/.test(v)) return "en";
  if (v === "chinese" || v === "中文" || /^zh([-_][a-z0-9]+)*$/.test(v)) return "zh";
  return null;
}

/** A parsable, not-future `created_at` as our timestamp; null otherwise. */
function createdAtOf(value: string, now: Date): string | null {
  const text = value.trim();
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) || time > now.getTime() ? null : new Date(time).toISOString();
}

/**
 * Reads an uploaded CSV of subscribers. The first record is the header; columns are found by
 * name, case-insensitively: `email` (required), `subscribed_to_emails` (Ghost; "false" skips the
 * row), `created_at` (or `createdAt`), and the language from `languages`, `language` or `locale`
 * (en, zh or both; empty: the admin's default). When both `languages` and `locale` are there (our
 * own export), `locale` says which of both is read first. Other columns are ignored.
 */
export function readSubscriberCsv(
  bytes: Uint8Array,
  defaults: ImportDefaultLanguages,
  now = new Date(),
): ImportFileResult {
  const file = readCsvFile(bytes);
  if (!file.ok) return file;
  const { rows, column } = file;
  const emailCol = column("email", "e-mail", "email address");
  if (emailCol < 0) return { ok: false, error: { code: "noEmailColumn" } };
  if (rows.length > IMPORT_MAX_ROWS) {
    return { ok: false, error: { code: "tooManyRows", max: IMPORT_MAX_ROWS, rows: rows.length } };
  }
  const subscribedCol = column("subscribed_to_emails", "subscribed");
  const createdCol = column("created_at", "createdat");
  const languagesCol = column("languages", "language", "locale");
  // `locale` says which of both comes first only beside a `languages` column (our own export).
  const localeOnly = column("locale");
  const localeCol = localeOnly === languagesCol ? -1 : localeOnly;

  const defaultLanguages: SubscriberLanguages = defaults === "bothEn" || defaults === "bothZh" ? "both" : defaults;
  const defaultLocale: Locale = defaults === "en" || defaults === "bothEn" ? "en" : "zh";
  const seen = new Set<string>();
  const read: ImportFileRead = { candidates: [], duplicates: 0, notSubscribed: 0, invalid: 0, problems: [] };
  const problem = (line: number, reason: ImportProblemReason, value: string) => {
    read.invalid += 1;
    if (read.problems.length < IMPORT_MAX_PROBLEMS)
      read.problems.push({ line, reason, value: shortenProblemValue(value) });
  };
  const cell = (fields: string[], index: number) => (index >= 0 ? (fields[index] ?? "") : "");

  for (const { line, fields } of rows) {
    // A row of empty cells (",,,", a spreadsheet's trailing lines) is a blank line.
    if (fields.every((f) => f.trim() === "")) continue;
    const raw = cell(fields, emailCol).trim();
    if (!raw) {
      problem(line, "emailMissing", "");
      continue;
    }
    if (!emailOnlySchema.safeParse({ email: raw }).success) {
      problem(line, "emailInvalid", raw);
      continue;
    }
    const email = normalizeEmail(raw);
    if (seen.has(email)) {
      read.duplicates += 1;
      continue;
    }
    seen.add(email);
    if (FALSE_WORDS.has(cell(fields, subscribedCol).trim().toLowerCase())) {
      read.notSubscribed += 1;
      continue;
    }
    const languageCell = cell(fields, languagesCol).trim();
    const languages = languageCell ? languagesOf(languageCell) : defaultLanguages;
    if (!languages) {
      problem(line, "languageUnknown", languageCell);
      continue;
    }
    const preferred = languagesOf(cell(fields, localeCol));
    const locale: Locale =
      languages !== "both" ? languages : preferred === "en" || preferred === "zh" ? preferred : defaultLocale;
    read.candidates.push({ line, email, languages, locale, createdAt: createdAtOf(cell(fields, createdCol), now) });
  }
  return { ok: true, ...read };
}
