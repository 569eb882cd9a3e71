import type { Dirent } from "node:fs";
import { lstat, readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { POST_LIMITS } from "../../lib/schemas/post.ts";
import { HAN } from "../../lib/slug.ts";
import type { Locale } from "../db/schema.server.ts";
import {
  type ImportedPost,
  type ImportedStatus,
  type ImportedTranslation,
  type ImportReportLine,
  parseSourceDate,
  sourceDateParts,
  sourceLocale,
} from "./core.server.ts";
import { FrontMatterError, readFrontMatter } from "./front-matter.server.ts";

// The Markdown-folder importer (Hexo, Hugo, Jekyll, Astro, Halo exports): one file per post
// with YAML, TOML or JSON front matter. Files of one post in two languages become one post:
// Hugo's `post.en.md`/`post.zh.md`, `content/en/…`/`content/zh/…`, or a shared
// `translationKey`; Hexo's `lang:` front matter with the same path or slug. Anything
// ambiguous is imported as separate posts and listed.

export const MARKDOWN_SOURCE = "markdown";
/** The largest Markdown file read; a larger one is refused unread (a post body is at most 200,000 characters). */
export const MARKDOWN_FILE_MAX_BYTES = 1024 * 1024;
/** The most Markdown files one folder may hold. */
export const MARKDOWN_MAX_FILES = 20_000;
/** Folders never read: build output, themes, dependencies. */
const SKIPPED_DIRS = new Set(["node_modules", "public", "resources", "themes", "dist", "build"]);
const MARKDOWN_FILE = /\.(md|markdown)$/i;
/** `name.en.md`, `index.zh-cn.md`: a language before the extension. */
const LANGUAGE_SUFFIX = /^(.+)\.([a-z]{2}(?:[-_][a-z]{2,4})?)\.(md|markdown)$/i;
const LANGUAGE_DIR = /^[a-z]{2}(?:[-_][a-z]{2,4})?$/i;

export interface MarkdownReadOptions {
  /** Old address pattern of the source blog: `:year`, `:month`, `:day`, `:slug`, `:filename`, `:section`. */
  permalink?: string | undefined;
  /**
   * A folder whose files are pages, not posts (decision 035): `pages`, `content/pages`. Matched
   * as whole folder names anywhere in a file's path, language folders (`en/`, `zh/`) left out.
   */
  pagesFolder?: string | undefined;
}

/** A pages folder as the owner typed it, as folder names (`/content/pages/` → content, pages); null when empty or unsafe. */
export function pagesFolderParts(value: string | undefined): string[] | null {
  const parts = (value ?? "")
    .trim()
    .split(/[\\/]+/)
    .filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.some((p) => p === ".." || p.length > 100)) return null;
  return parts;
}

/** Whether a file's folders (language folders left out) hold the named pages folder. */
function inPagesFolder(dirParts: readonly string[], folder: readonly string[] | null): boolean {
  if (!folder) return false;
  for (let i = 0; i + folder.length <= dirParts.length; i++)
    if (folder.every((f, j) => dirParts[i + j]?.toLowerCase() === f.toLowerCase())) return true;
  return false;
}

/** Hugo's and Jekyll's ways to mark a file as a page: `type: page` or `layout: page`. */
function markedAsPage(data: Record<string, unknown>): boolean {
  return [data.type, data.layout].some((v) => typeof v === "string" && v.trim().toLowerCase() === "page");
}

export interface SourceRead {
  posts: ImportedPost[];
  /** Files that could not be read, and notes about the folder as a whole. */
  problems: ImportReportLine[];
  files: number;
}

export class SourceRefused extends Error {
  override name = "SourceRefused";
}

/** A source nested more deeply than a reader follows (JSON brackets, XML elements). */
export class SourceTooDeep extends SourceRefused {
  override name = "SourceTooDeep";
}

interface Entry {
  rel: string;
  /** The file's folder, relative to the root ("" for the root). */
  dir: string;
  /** The file name without language and extension. */
  base: string;
  explicit: Locale | null;
  guessed: Locale;
  data: Record<string, unknown>;
  body: string;
  key: string;
  /** The file's folders without its language folder: where a pages folder is looked for. */
  dirParts: string[];
}

async function listMarkdownFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      // Symbolic links are not followed: they could lead out of the folder.
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name)) await walk(path.join(dir, e.name));
      } else if (e.isFile() && MARKDOWN_FILE.test(e.name)) {
        out.push(path.join(dir, e.name));
        if (out.length > MARKDOWN_MAX_FILES) throw new SourceRefused(`more than ${MARKDOWN_MAX_FILES} Markdown files`);
      }
    }
  };
  await walk(root);
  return out;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** A field that may be a list or a comma-separated string (tags, categories), flattened. */
function list(v: unknown): string[] {
  if (typeof v === "string")
    return v
      .split(/[,，]/)
      .map((s) => s.trim())
      .filter(Boolean);
  if (typeof v === "number") return [String(v)];
  if (Array.isArray(v)) return v.flatMap(list);
  return [];
}

const firstOf = (data: Record<string, unknown>, keys: readonly string[]): unknown => {
  for (const k of keys) if (data[k] !== undefined && data[k] !== null && data[k] !== "") return data[k];
  return undefined;
};

function coverOf(data: Record<string, unknown>): { src: string | null; alt: string } {
  const raw = firstOf(data, [
    "cover",
    "image",
    "thumbnail",
    "feature_image",
    "featured_image",
    "featureImage",
    "banner",
  ]);
  if (typeof raw === "string") return { src: str(raw), alt: str(data.cover_alt) ?? str(data.coverAlt) ?? "" };
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    return { src: str(o.image) ?? str(o.src) ?? str(o.url), alt: str(o.alt) ?? "" };
  }
  const images = data.images;
  if (Array.isArray(images) && typeof images[0] === "string") return { src: str(images[0]), alt: "" };
  return { src: null, alt: "" };
}

function cut(text: string, max: number, what: string, item: string, notes: ImportReportLine[]): string {
  if (text.length <= max) return text;
  notes.push({ item, outcome: "note", reason: `${what}Cut`, detail: `cut to ${max} characters` });
  return text.slice(0, max).trimEnd();
}

function firstHeading(body: string): string | null {
  const m = /^#\s+(.+?)\s*#*\s*$/m.exec(body);
  return m?.[1] ? m[1].trim() : null;
}

function toEntry(rel: string, data: Record<string, unknown>, body: string): Entry {
  const parts = rel.split("/");
  const file = parts.pop() ?? rel;
  let dirParts = parts;
  let explicit: Locale | null = null;
  let base = file.replace(MARKDOWN_FILE, "");
  const suffix = LANGUAGE_SUFFIX.exec(file);
  const suffixLocale = suffix ? sourceLocale(suffix[2]) : null;
  if (suffix?.[1] && suffixLocale) {
    explicit = suffixLocale;
    base = suffix[1];
  }
  const langDir = dirParts.findIndex((p) => LANGUAGE_DIR.test(p) && sourceLocale(p) !== null);
  if (langDir >= 0) {
    explicit ??= sourceLocale(dirParts[langDir]);
    dirParts = dirParts.filter((_, i) => i !== langDir);
  }
  const fmLocale = sourceLocale(firstOf(data, ["lang", "language", "locale"]));
  const fromFrontMatterOnly = explicit === null && fmLocale !== null;
  explicit ??= fmLocale;
  const title = str(data.title) ?? "";
  const guessed: Locale = HAN.test(title || body.slice(0, 500)) ? "zh" : "en";
  const translationKey = str(data.translationKey) ?? str(data.translation_key) ?? str(data.i18nKey);
  const slug = str(data.slug);
  const stem = [...dirParts, base].join("/");
  const key = translationKey
    ? `key:${translationKey}`
    : fromFrontMatterOnly && slug
      ? `slug:${[...dirParts, slug].join("/")}`
      : stem;
  return { rel, dir: parts.join("/"), base, explicit, guessed, data, body, key, dirParts };
}

/** Places a group's files in language slots; null when that cannot be done without guessing. */
function pair(group: Entry[]): Map<Locale, Entry> | null {
  if (group.length === 1) {
    const [only] = group as [Entry];
    return new Map([[only.explicit ?? only.guessed, only]]);
  }
  if (group.length > 2) return null;
  const slots = new Map<Locale, Entry>();
  const loose: Entry[] = [];
  for (const e of group) {
    if (!e.explicit) loose.push(e);
    else if (slots.has(e.explicit)) return null;
    else slots.set(e.explicit, e);
  }
  if (loose.length > 1) return null;
  const [lone] = loose;
  if (lone) {
    const free = (["en", "zh"] as const).find((l) => !slots.has(l));
    if (!free) return null;
    slots.set(free, lone);
  }
  return slots;
}

function fillPattern(pattern: string, values: Record<string, string | null>): string | null {
  let missing = false;
  const out = pattern.replace(/:(year|month|day|slug|filename|section|title)\b|\{(yyyy|mm|dd|slug)\}/g, (_m, a, b) => {
    const name = ({ yyyy: "year", mm: "month", dd: "day" } as Record<string, string>)[b] ?? a ?? b;
    const v = values[name];
    if (!v) missing = true;
    return v ?? "";
  });
  if (missing) return null;
  return out.startsWith("/") || /^https?:\/\//i.test(out) ? out : `/${out}`;
}

function oldUrlsOf(
  entries: Entry[],
  bilingual: boolean,
  locales: Locale[],
  opts: MarkdownReadOptions,
  isPage: boolean,
): string[] {
  const urls: string[] = [];
  entries.forEach((e, i) => {
    const locale = locales[i];
    const own = [str(e.data.permalink), str(e.data.url), ...list(e.data.aliases)].filter((u): u is string => !!u);
    urls.push(...own);
    const date = sourceDateParts(firstOf(e.data, ["date", "publishDate", "pubDate", "published_at"]));
    const slugs = new Set<string>();
    const slug = str(e.data.slug);
    if (slug) slugs.add(slug);
    const dirName = e.dir.split("/").pop() ?? "";
    slugs.add(e.base === "index" || e.base === "_index" ? dirName : e.base);
    slugs.delete("");
    const section = e.dir.split("/").find((p) => !LANGUAGE_DIR.test(p) && p !== "content" && p !== "source") ?? "";
    // A page lived at `/{slug}/` (Hugo, Jekyll, Hexo alike); a post under the blog's patterns.
    const patterns = isPage ? ["/:slug/"] : ["/posts/:slug/", ...(date ? ["/:year/:month/:day/:slug/"] : [])];
    if (opts.permalink && !isPage) patterns.push(opts.permalink);
    for (const s of slugs) {
      for (const p of patterns) {
        const url = fillPattern(p, {
          year: date?.yyyy ?? null,
          month: date?.mm ?? null,
          day: date?.dd ?? null,
          slug: s,
          title: s,
          filename: e.base,
          section: section || null,
        });
        if (!url) continue;
        urls.push(url);
        if (bilingual && locale && url.startsWith("/")) urls.push(`/${locale}${url}`);
      }
    }
  });
  return [...new Set(urls)];
}

function toPost(sourceId: string, slots: Map<Locale, Entry>, opts: MarkdownReadOptions): ImportedPost {
  const ordered = (["en", "zh"] as const).flatMap((l) => {
    const e = slots.get(l);
    return e ? [[l, e] as const] : [];
  });
  const entries = ordered.map(([, e]) => e);
  const label = entries.map((e) => e.rel).join(" + ");
  const notes: ImportReportLine[] = [];
  const translations: ImportedTranslation[] = ordered.map(([locale, e]) => {
    const title = str(e.data.title) ?? firstHeading(e.body) ?? e.base;
    const summary = str(firstOf(e.data, ["description", "excerpt", "summary", "subtitle"])) ?? "";
    return {
      locale,
      title: cut(title.replace(/\s+/g, " "), POST_LIMITS.titleMax, "title", e.rel, notes),
      summary: cut(summary, POST_LIMITS.summaryMax, "summary", e.rel, notes),
      bodyMarkdown: e.body,
      origin: e.rel,
    };
  });
  const dateValue = entries
    .map((e) => firstOf(e.data, ["date", "publishDate", "pubDate", "published_at"]))
    .find((v) => v !== undefined);
  const publishedAt = dateValue === undefined ? null : parseSourceDate(dateValue);
  if (dateValue !== undefined && !publishedAt)
    notes.push({ item: label, outcome: "note", reason: "dateInvalid", detail: String(dateValue).slice(0, 60) });
  const drafts = entries.map((e) => e.data.draft === true || e.data.published === false || e.data.draft === "true");
  let status: ImportedStatus = drafts.some(Boolean) ? "draft" : "published";
  if (drafts.some(Boolean) && !drafts.every(Boolean))
    notes.push({
      item: label,
      outcome: "note",
      reason: "statusMixed",
      detail: "one language is a draft: imported as a draft",
    });
  if (status === "published" && publishedAt && Date.parse(publishedAt) > Date.now()) status = "scheduled";
  const cover = entries.map((e) => coverOf(e.data)).find((c) => c.src) ?? { src: null, alt: "" };
  const assetDirs = [...new Set(entries.flatMap((e) => [e.dir, [e.dir, e.base].filter(Boolean).join("/")]))];
  const folder = pagesFolderParts(opts.pagesFolder);
  const isPage = entries.some((e) => markedAsPage(e.data) || inPagesFolder(e.dirParts, folder));
  return {
    sourceId,
    ...(isPage ? { kind: "page" as const } : {}),
    label,
    translations,
    slug: entries.map((e) => str(e.data.slug)).find((s) => s) ?? null,
    publishedAt,
    status,
    tags: [...new Set(entries.flatMap((e) => list(firstOf(e.data, ["tags", "tag", "keywords"]))))],
    categories: [...new Set(entries.flatMap((e) => list(firstOf(e.data, ["categories", "category"]))))],
    cover: cover.src,
    coverAlt: cover.alt,
    oldUrls: oldUrlsOf(
      entries,
      entries.length > 1,
      ordered.map(([l]) => l),
      opts,
      isPage,
    ),
    assetDirs,
    notes,
  };
}

/** Posts handed on per batch while a folder is streamed. */
const MARKDOWN_STREAM_BATCH = 100;

/** One file read: its entry, or the report line of why it could not be read. */
async function readEntry(root: string, file: string): Promise<{ entry: Entry } | { problem: ImportReportLine }> {
  const rel = path.relative(root, file).split(path.sep).join("/");
  const size = (await lstat(file)).size;
  if (size > MARKDOWN_FILE_MAX_BYTES)
    return { problem: { item: rel, outcome: "failed", reason: "fileTooLarge", detail: `${size} bytes` } };
  const text = await readFile(file, "utf8");
  try {
    const fm = await readFrontMatter(text);
    return { entry: toEntry(rel, fm.data, fm.body) };
  } catch (error) {
    if (!(error instanceof FrontMatterError)) throw error;
    return { problem: { item: rel, outcome: "failed", reason: error.code, detail: error.message } };
  }
}

/**
 * Reads a folder of Markdown posts as a stream (decision 020, "At scale": Markdown): a first pass
 * reads every file's front matter and keeps it without the body, which is all the pairing of
 * languages needs; a second reads each group's files again and hands its post on, in batches.
 * Memory holds the front matter of the folder and one batch of posts, not every body. Unreadable
 * files (too large, broken or hostile front matter) are listed as failed; nothing is written.
 */
export async function streamMarkdownFolder(
  root: string,
  opts: MarkdownReadOptions,
  onPosts: (posts: ImportedPost[]) => Promise<void>,
): Promise<{ problems: ImportReportLine[]; files: number; posts: number; pairs: number }> {
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new SourceRefused(`not a folder: ${root}`);
  const files = await listMarkdownFiles(root);
  const problems: ImportReportLine[] = [];
  const groups = new Map<string, { file: string; rel: string }[]>();
  for (const file of files) {
    const read = await readEntry(root, file);
    if ("problem" in read) {
      problems.push(read.problem);
      continue;
    }
    const { key, rel } = read.entry;
    groups.set(key, [...(groups.get(key) ?? []), { file, rel }]);
  }
  let batch: ImportedPost[] = [];
  let posts = 0;
  let pairs = 0;
  const hand = async (post: ImportedPost) => {
    posts += 1;
    if (post.translations.length > 1) pairs += 1;
    batch.push(post);
    if (batch.length >= MARKDOWN_STREAM_BATCH) {
      const full = batch;
      batch = [];
      await onPosts(full);
    }
  };
  for (const [key, members] of groups) {
    // The second read of the group's files: the bodies, now (a file changed since is read as it is now).
    const group: Entry[] = [];
    for (const m of members) {
      const read = await readEntry(root, m.file);
      if ("problem" in read) problems.push(read.problem);
      else group.push(read.entry);
    }
    if (group.length === 0) continue;
    const slots = pair(group);
    if (slots) {
      await hand(toPost(group.length === 1 && group[0] ? group[0].key : key, slots, opts));
      continue;
    }
    problems.push({
      item: group.map((e) => e.rel).join(" + "),
      outcome: "ambiguous",
      reason: "pairingAmbiguous",
      detail: "imported as separate posts",
    });
    for (const e of group) await hand(toPost(`file:${e.rel}`, new Map([[e.explicit ?? e.guessed, e]]), opts));
  }
  if (batch.length > 0) await onPosts(batch);
  return { problems, files: files.length, posts, pairs };
}

/** Reads a whole folder of Markdown posts into imported posts (the admin page's zips, tests): the stream, collected. */
export async function readMarkdownFolder(root: string, opts: MarkdownReadOptions = {}): Promise<SourceRead> {
  const posts: ImportedPost[] = [];
  const read = await streamMarkdownFolder(root, opts, async (batch) => {
    posts.push(...batch);
  });
  return { posts, problems: read.problems, files: read.files };
}
