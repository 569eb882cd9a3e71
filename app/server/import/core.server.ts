import { createHash } from "node:crypto";
import type { Locale } from "../db/schema.server.ts";

// The source-neutral shape every importer produces (docs/decisions/020-importers.md). An importer
// (Markdown folders now; Ghost and WordPress later) only reads its source into ImportedPost items
// and says how its image references resolve; queueing, matching by source id, images through the
// upload pipeline, rendering, redirects and the report are shared (job/ and write/, see README.md).

export type ImportedStatus = "draft" | "published" | "scheduled";

export interface ImportedTranslation {
  locale: Locale;
  title: string;
  summary: string;
  bodyMarkdown: string;
  /** Where this version came from, for the report (a file path). */
  origin: string;
}

export interface ImportedPost {
  /** Stable id of the post in its source (a file path without its language, a Ghost id…). */
  sourceId: string;
  /**
   * "page": one of the source's pages (Ghost's and WordPress's pages, a Markdown file marked as
   * one), written to the pages table at `/{slug}` rather than as a post (decision 035). Absent: a post.
   */
  kind?: "page";
  /** What the report calls it. */
  label: string;
  translations: ImportedTranslation[];
  /** The source's slug, if any (checked and made unique when written). */
  slug: string | null;
  /** UTC ISO. */
  publishedAt: string | null;
  status: ImportedStatus;
  tags: string[];
  categories: string[];
  /** A cover image reference as the source has it (relative path, site path or URL). */
  cover: string | null;
  coverAlt: string;
  /** Old addresses of the post: site paths or whole URLs; redirected to the new post. */
  oldUrls: string[];
  /**
   * Old addresses of the post's tags (Ghost's `/tag/{slug}/`), each with the tag's name: redirected
   * to that tag's page once the post's tags exist. Absent for sources without tag pages.
   */
  tagUrls?: { from: string; tag: string }[];
  /**
   * Old addresses of the post's category (WordPress's `/category/{path}/`): redirected to the
   * category page of the post's category (its first). Absent for sources without category pages.
   */
  categoryUrls?: string[];
  /**
   * The blog's own old addresses (its feeds), each with our site path: carried by the first post a
   * reader hands on and written with it (the job has no other place for them). Absent on the rest.
   */
  siteUrls?: { from: string; to: string }[];
  /** Folders (relative to the import's root) where relative image references are looked up, in order. */
  assetDirs: string[];
  /** Notes from reading the source, for the report (ambiguous pairing, cut titles…). */
  notes: ImportReportLine[];
  /**
   * The post's author in the source (Ghost's primary author): matched to an account by verified
   * e-mail, else an author account without login is made (decision 020, "Ghost authors"). Absent:
   * the importing account.
   */
  author?: ImportedAuthor;
  /** The post's comments (WordPress), parents before their replies. Each is written once (entity `comment`). */
  comments?: ImportedComment[];
  /** Earlier versions of the post (WordPress revisions), oldest first: its revision history here. */
  revisions?: ImportedRevision[];
}

/** An author as the source has it. The e-mail is only compared, never shown or stored on the new account. */
export interface ImportedAuthor {
  /** The source's user id (unique within the source). */
  sourceId: string;
  name: string;
  /** Lowercase, or null when the source has none that looks like an address. */
  email: string | null;
  /** The author's old page addresses (Ghost's `/author/{slug}/`): redirected to the author page. */
  oldUrls: string[];
}

/** A comment as the source has it; spam, trash and pingbacks are left out by the reader. */
export interface ImportedComment {
  /** The source's comment id (unique within the source). */
  sourceId: string;
  /** The top-level comment it replies to (our comments have one level of replies), or null. */
  parentSourceId: string | null;
  status: "approved" | "pending";
  authorName: string;
  authorEmail: string | null;
  authorUrl: string | null;
  /** UTC ISO. */
  createdAt: string;
  bodyMarkdown: string;
}

/** An earlier version of one language of a post. */
export interface ImportedRevision {
  sourceId: string;
  locale: Locale;
  title: string;
  summary: string;
  bodyMarkdown: string;
  /** UTC ISO. */
  createdAt: string;
}

export type ImportOutcome = "imported" | "updated" | "skipped" | "failed" | "ambiguous" | "imageMissing" | "note";

/** One line of an import's report. `reason` is a stable code; `detail` says more (a path, a parser message). */
export interface ImportReportLine {
  item: string;
  outcome: ImportOutcome;
  reason?: string;
  detail?: string;
}

/** The report keeps this many lines; the counts are always complete. */
export const REPORT_MAX_LINES = 500;

export interface ImportCounts {
  total: number;
  imported: number;
  updated: number;
  skipped: number;
  failed: number;
  imagesStored: number;
  imagesMissing: number;
  redirectsAdded: number;
  commentsAdded: number;
  /** Pages imported or updated (`imported` and `updated` count posts). */
  pages: number;
}

export const emptyCounts = (): ImportCounts => ({
  total: 0,
  imported: 0,
  updated: 0,
  skipped: 0,
  failed: 0,
  imagesStored: 0,
  imagesMissing: 0,
  redirectsAdded: 0,
  commentsAdded: 0,
  pages: 0,
});

/** The content hash a re-run compares: the same source item twice is skipped as unchanged. */
export function itemHash(post: ImportedPost): string {
  const { notes: _notes, ...content } = post;
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

/**
 * A date as sources write it, as UTC ISO: a Date (TOML), `2024-01-02`, `2024-01-02 10:00[:00]`
 * (no zone: read as UTC), or any ISO-8601 instant. Null when it is none of those or out of range.
 */
export function parseSourceDate(value: unknown): string | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === "number" && Number.isFinite(value)) {
    // Unix seconds (some exporters) or milliseconds.
    const ms = value < 1e11 ? value * 1000 : value;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? null : d.toISOString();
  }
  if (typeof value !== "string") return null;
  const text = value.trim();
  let iso = text;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) iso = `${text}T00:00:00Z`;
  else if (/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)) iso = `${text.replace(" ", "T")}Z`;
  else if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(text)) iso = text.replace(" ", "T");
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso)) return null;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  // Date.parse rolls 2021-02-31 over into March: a date written without a zone must come back as written.
  if (iso.endsWith("Z") && new Date(ms).toISOString().slice(0, 10) !== iso.slice(0, 10)) return null;
  const year = new Date(ms).getUTCFullYear();
  if (year < 1970 || year > 9999) return null;
  return new Date(ms).toISOString();
}

/** The calendar date a source wrote (for old URLs such as /2020/01/02/slug/), before any zone shift. */
export function sourceDateParts(value: unknown): { yyyy: string; mm: string; dd: string } | null {
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    const iso = value.toISOString();
    return { yyyy: iso.slice(0, 4), mm: iso.slice(5, 7), dd: iso.slice(8, 10) };
  }
  if (typeof value === "string") {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim());
    if (m?.[1] && m[2] && m[3]) return { yyyy: m[1], mm: m[2], dd: m[3] };
  }
  const iso = parseSourceDate(value);
  return iso ? { yyyy: iso.slice(0, 4), mm: iso.slice(5, 7), dd: iso.slice(8, 10) } : null;
}

/** A language as sources name it (`en-US`, `zh-Hans`, `cn`…), or null when it is neither of ours. */
export function sourceLocale(value: unknown): Locale | null {
  if (typeof value !== "string") return null;
  const v = value.trim().toLowerCase().replace("_", "-");
  if (v === "en" || v.startsWith("en-")) return "en";
  if (v === "zh" || v.startsWith("zh-") || v === "cn" || v === "chs" || v === "cht") return "zh";
  return null;
}

/** Whether a reference is a remote or inline resource rather than a file of the source. */
export function isRemoteReference(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(ref) || ref.startsWith("//");
}
