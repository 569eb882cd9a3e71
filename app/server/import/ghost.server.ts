import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { cleanDisplayName } from "../../lib/display-name.ts";
import { POST_LIMITS } from "../../lib/schemas/post.ts";
import { HAN } from "../../lib/slug.ts";
import type { Locale } from "../db/schema.server.ts";
import {
  type ImportedAuthor,
  type ImportedPost,
  type ImportedStatus,
  type ImportReportLine,
  parseSourceDate,
} from "./core.server.ts";
import { htmlToMarkdown } from "./html-markdown.server.ts";
import type { ImageResolver } from "./images.server.ts";
import { localImageResolver } from "./images.server.ts";
import { JsonRowsError, JsonTooDeep, scanJsonRows } from "./json-rows.server.ts";
import { LEXICAL_MAX_CHARS, lexicalToMarkdown } from "./lexical-markdown.server.ts";
import { type SourceRead, SourceRefused, SourceTooDeep } from "./markdown-folder.server.ts";

// The Ghost importer (Ghost 5 and 6 JSON export; docs/decisions/020-importers.md, "Ghost").
// Reads `{"db":[{"meta","data"}]}` (or the bare `{"meta","data"}`) into imported posts: posts
// and pages (as pages, `kind: "page"`, at `/{slug}` here: decision 035),
// drafts, scheduled and published posts, custom excerpts, feature images, public tags
// (Ghost's internal `#tags` are skipped), the `html` body converted to Markdown. A Ghost blog
// is one language: the admin says which.

export const GHOST_SOURCE = "ghost";
/** The largest export read (checked before reading). */
export const GHOST_FILE_MAX_BYTES = 100 * 1024 * 1024;
/** The most posts and pages one export may hold. */
export const GHOST_MAX_POSTS = 50_000;

export interface GhostReadOptions {
  /** The blog's language; without it each post is Chinese when its title has Han characters, else English. */
  locale?: Locale | undefined;
}

type Row = Record<string, unknown>;

const isRow = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
const rows = (v: unknown): Row[] => (Array.isArray(v) ? v.filter(isRow) : []);

/** The `data` object of an export in either shape, or null. */
function dataOf(doc: unknown): Row | null {
  if (!isRow(doc)) return null;
  if (Array.isArray(doc.db)) {
    const first = doc.db.find(isRow);
    return first && isRow(first.data) ? first.data : null;
  }
  return isRow(doc.data) ? doc.data : null;
}

/** Whether a parsed JSON document looks like a Ghost export (the admin page detects uploads this way). */
export function isGhostExport(doc: unknown): boolean {
  const data = dataOf(doc);
  return data !== null && Array.isArray(data.posts);
}

/**
 * A Ghost image reference as a path the image resolver understands: `__GHOST_URL__` and
 * resized copies (`/content/images/size/w600/…`) point at the original under `/content/images/`.
 */
export function ghostImageRef(raw: string): string {
  let ref = raw.trim().replace(/^__GHOST_URL__/, "");
  ref = ref.replace(/^\/content\/images\/size\/[^/]+\/(?:format\/[^/]+\/)?/, "/content/images/");
  return ref;
}

const GHOST_IMAGES = /^\/content\/images\/(.+)$/;

/**
 * Finds `/content/images/…` references under the given folder: the folder may be Ghost's
 * `content/images` itself, its `content` folder or the Ghost root. Other references resolve
 * as in any import.
 */
export function ghostImageResolver(root: string, maxBytes: number): ImageResolver {
  const local = localImageResolver(root, maxBytes);
  return {
    resolve(ref, assetDirs) {
      const m = GHOST_IMAGES.exec(ref.split(/[?#]/)[0] ?? "");
      if (m?.[1]) return local.resolve(m[1], ["", "images", "content/images"]);
      return local.resolve(ref, assetDirs);
    },
  };
}

/** Rewrites every `__GHOST_URL__` and resized image address in a converted body. */
const rewriteGhostUrls = (markdown: string): string =>
  markdown
    .replace(/__GHOST_URL__/g, "")
    .replace(/\/content\/images\/size\/[^/\s)"]+\/(?:format\/[^/\s)"]+\/)?/g, "/content/images/");

function cut(text: string, max: number, what: string, item: string, notes: ImportReportLine[]): string {
  if (text.length <= max) return text;
  notes.push({ item, outcome: "note", reason: `${what}Cut`, detail: `cut to ${max} characters` });
  return text.slice(0, max).trimEnd();
}

/** Reads and parses an export file; refuses what is too large or not a Ghost export. */
export async function loadGhostExport(file: string): Promise<unknown> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${file}`);
  if (info.size > GHOST_FILE_MAX_BYTES)
    throw new SourceRefused(`the export is larger than ${GHOST_FILE_MAX_BYTES / 1024 / 1024} MB (${info.size} bytes)`);
  return parseGhostJson(await readFile(file, "utf8"));
}

/** Parses an export's text; refuses what is not JSON or not a Ghost export. */
export function parseGhostJson(text: string): unknown {
  if (text.length > GHOST_FILE_MAX_BYTES) throw new SourceRefused("the export is larger than 100 MB");
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.slice(0, 200) : "";
    throw new SourceRefused(`not a JSON file${detail ? `: ${detail}` : ""}`);
  }
  if (!isGhostExport(doc)) throw new SourceRefused("not a Ghost export (no db[0].data.posts)");
  return doc;
}

/** The export's tables other than `posts`: what a post needs from elsewhere in the export. */
export interface GhostTables {
  tags: Row[];
  posts_tags: Row[];
  posts_meta: Row[];
  users: Row[];
  posts_authors: Row[];
}

export const GHOST_INDEX_TABLES: ReadonlySet<string> = new Set([
  "tags",
  "posts_tags",
  "posts_meta",
  "users",
  "posts_authors",
]);

/**
 * A reader of one post row at a time, given the other tables (the streamed read's second pass, or a
 * parsed document's rows): each row becomes an imported post, or null with a line in `problems`.
 */
export function ghostPostReader(
  tables: GhostTables,
  opts: GhostReadOptions,
  problems: ImportReportLine[],
): (p: Row) => ImportedPost | null {
  const tags = new Map<string, { name: string; slug: string | null }>();
  for (const t of tables.tags) {
    const id = str(t.id);
    const name = str(t.name);
    // Internal tags (`#hash`) organise Ghost themes; they are not the blog's tags.
    if (!id || !name || name.startsWith("#") || t.visibility === "internal") continue;
    tags.set(id, { name: name.slice(0, 100), slug: str(t.slug) });
  }
  const tagsOf = new Map<string, { order: number; tag: string }[]>();
  for (const pt of tables.posts_tags) {
    const post = str(pt.post_id);
    const tag = str(pt.tag_id);
    if (!post || !tag || !tags.has(tag)) continue;
    const list = tagsOf.get(post) ?? [];
    list.push({ order: typeof pt.sort_order === "number" ? pt.sort_order : list.length, tag });
    tagsOf.set(post, list);
  }
  // Ghost 5 keeps the feature image's alt and caption in posts_meta.
  const meta = new Map<string, Row>();
  for (const m of tables.posts_meta) {
    const id = str(m.post_id);
    if (id) meta.set(id, m);
  }
  const users = new Map<string, ImportedAuthor>();
  for (const u of tables.users) {
    const id = str(u.id);
    if (!id) continue;
    const slug = str(u.slug);
    const email = str(u.email)?.toLowerCase() ?? null;
    users.set(id, {
      sourceId: id,
      // The display-name rules (decision 015): no control or direction characters, 50 at most.
      name: cleanDisplayName(str(u.name) ?? slug ?? ""),
      email: email && email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
      oldUrls: slug && /^[\w\p{L}\p{N}-]{1,200}$/u.test(slug) ? [`/author/${slug}/`] : [],
    });
  }
  const authorsOf = new Map<string, { order: number; author: string }[]>();
  for (const pa of tables.posts_authors) {
    const post = str(pa.post_id);
    const author = str(pa.author_id);
    if (!post || !author) continue;
    const list = authorsOf.get(post) ?? [];
    list.push({ order: typeof pa.sort_order === "number" ? pa.sort_order : list.length, author });
    authorsOf.set(post, list);
  }

  const seen = new Set<string>();
  let siteUrlsGiven = false;
  return (p: Row): ImportedPost | null => {
    const id = str(p.id) ?? str(p.uuid);
    const title = str(p.title) ?? "";
    const label = `${title || "(untitled)"} [${id ?? "?"}]`.slice(0, 300);
    if (!id) {
      problems.push({ item: label, outcome: "failed", reason: "ghostNoId" });
      return null;
    }
    if (seen.has(id)) {
      problems.push({ item: label, outcome: "failed", reason: "ghostDuplicateId" });
      return null;
    }
    seen.add(id);
    const notes: ImportReportLine[] = [];
    const html = typeof p.html === "string" && p.html.trim() !== "" ? p.html : null;
    let body = "";
    if (html !== null) {
      if (html.length > POST_LIMITS.bodyMax * 4) {
        problems.push({ item: label, outcome: "failed", reason: "bodyTooLong" });
        return null;
      }
      const converted = htmlToMarkdown(html);
      body = rewriteGhostUrls(converted.markdown);
      for (const kept of converted.keptAsHtml)
        notes.push({ item: label, outcome: "note", reason: "ghostKeptAsHtml", detail: kept });
      if (converted.flattened) notes.push({ item: label, outcome: "note", reason: "ghostFlattened" });
    } else if (typeof p.lexical === "string" && p.lexical.trim() !== "") {
      // Ghost 5 and 6 store Lexical; an export may carry no `html` for it.
      if (p.lexical.length > LEXICAL_MAX_CHARS) {
        problems.push({ item: label, outcome: "failed", reason: "bodyTooLong" });
        return null;
      }
      const converted = lexicalToMarkdown(p.lexical);
      if (!converted) {
        problems.push({ item: label, outcome: "failed", reason: "ghostLexicalInvalid" });
        return null;
      }
      body = rewriteGhostUrls(converted.markdown);
      // An empty document with a plain text beside it: the text is what there is.
      if (body.trim() === "" && typeof p.plaintext === "string") body = p.plaintext;
      for (const type of converted.unknown)
        notes.push({ item: label, outcome: "note", reason: "ghostLexicalUnknown", detail: type.slice(0, 60) });
      for (const type of converted.dropped)
        notes.push({ item: label, outcome: "note", reason: "ghostLexicalDropped", detail: type.slice(0, 60) });
      for (const kept of converted.keptAsHtml)
        notes.push({ item: label, outcome: "note", reason: "ghostKeptAsHtml", detail: kept });
      if (converted.flattened) notes.push({ item: label, outcome: "note", reason: "ghostFlattened" });
    } else {
      body = typeof p.plaintext === "string" ? p.plaintext : "";
      if (p.mobiledoc) notes.push({ item: label, outcome: "note", reason: "ghostNoHtml" });
    }
    const statusRaw = str(p.status);
    const publishedAt = parseSourceDate(p.published_at);
    let status: ImportedStatus = "draft";
    if (statusRaw === "published" || statusRaw === "sent") status = "published";
    else if (statusRaw === "scheduled") status = publishedAt ? "scheduled" : "draft";
    if (status === "published" && publishedAt && Date.parse(publishedAt) > Date.now()) status = "scheduled";
    if (status === "scheduled" && publishedAt && Date.parse(publishedAt) <= Date.now()) status = "published";
    if (statusRaw && !["published", "draft", "scheduled", "sent"].includes(statusRaw))
      notes.push({ item: label, outcome: "note", reason: "ghostStatus", detail: statusRaw.slice(0, 40) });
    if (p.visibility && p.visibility !== "public")
      notes.push({
        item: label,
        outcome: "note",
        reason: "ghostMembersOnly",
        detail: String(p.visibility).slice(0, 40),
      });

    const postTagRows = (tagsOf.get(id) ?? [])
      .sort((a, b) => a.order - b.order)
      .map((t) => tags.get(t.tag))
      .filter((t): t is { name: string; slug: string | null } => !!t);
    const postTags = postTagRows.map((t) => t.name);
    const isPage = p.type === "page" || p.page === true || p.page === 1;
    const pm = meta.get(id);
    const coverRaw = str(p.feature_image);
    const slug = str(p.slug);
    // Our posts have one author: Ghost's primary (first) one; co-authors are listed by name.
    const authorIds = (authorsOf.get(id) ?? []).sort((a, b) => a.order - b.order).map((a) => a.author);
    if (authorIds.length === 0 && str(p.author_id)) authorIds.push(str(p.author_id) as string);
    const [primaryId, ...coAuthorIds] = authorIds;
    const author = primaryId ? users.get(primaryId) : undefined;
    if (primaryId && !author) notes.push({ item: label, outcome: "note", reason: "ghostAuthorUnknown" });
    const coAuthors = coAuthorIds.map((a) => users.get(a)?.name || "?");
    if (coAuthors.length > 0)
      notes.push({
        item: label,
        outcome: "note",
        reason: "ghostCoAuthors",
        detail: coAuthors.join(", ").slice(0, 200),
      });
    const locale: Locale = opts.locale ?? (HAN.test(title || body.slice(0, 500)) ? "zh" : "en");
    const post: ImportedPost = {
      sourceId: id,
      ...(isPage ? { kind: "page" as const } : {}),
      label,
      translations: [
        {
          locale,
          title: cut((title || slug || id).replace(/\s+/g, " "), POST_LIMITS.titleMax, "title", label, notes),
          summary: cut(
            str(p.custom_excerpt) ?? str(pm?.meta_description) ?? "",
            POST_LIMITS.summaryMax,
            "summary",
            label,
            notes,
          ),
          bodyMarkdown: body,
          origin: `${isPage ? "page" : "post"} ${slug ?? id}`,
        },
      ],
      slug,
      publishedAt,
      status,
      tags: postTags,
      categories: [],
      cover: coverRaw ? ghostImageRef(coverRaw) : null,
      coverAlt: (str(p.feature_image_alt) ?? str(pm?.feature_image_alt) ?? "").slice(0, 300),
      oldUrls: slug ? [`/${slug}/`] : [],
      tagUrls: postTagRows.flatMap((t) => (t.slug ? [{ from: `/tag/${t.slug}/`, tag: t.name }] : [])),
      assetDirs: [""],
      notes,
      ...(author ? { author } : {}),
    };
    if (!siteUrlsGiven) {
      // Ghost's feed rides on the first post (the job's only carrier; decision 020).
      siteUrlsGiven = true;
      post.siteUrls = GHOST_SITE_URLS;
    }
    return post;
  };
}

/** Reads a parsed Ghost export into imported posts. Nothing is written. */
export function readGhostExport(doc: unknown, opts: GhostReadOptions = {}): SourceRead {
  const data = dataOf(doc);
  if (!data || !Array.isArray(data.posts)) throw new SourceRefused("not a Ghost export (no db[0].data.posts)");
  const problems: ImportReportLine[] = [];
  const posts = rows(data.posts);
  if (posts.length > GHOST_MAX_POSTS) throw new SourceRefused(`more than ${GHOST_MAX_POSTS} posts and pages`);
  const read = ghostPostReader(
    {
      tags: rows(data.tags),
      posts_tags: rows(data.posts_tags),
      posts_meta: rows(data.posts_meta),
      users: rows(data.users),
      posts_authors: rows(data.posts_authors),
    },
    opts,
    problems,
  );
  const out: ImportedPost[] = [];
  for (const p of posts) {
    const post = read(p);
    if (post) out.push(post);
  }
  return { posts: out, problems, files: 1 };
}

/** Posts handed on per batch while an export is streamed. */
const GHOST_STREAM_BATCH = 100;

async function* fileText(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 256 * 1024 });
  for await (const chunk of stream) yield chunk as string;
}

/**
 * Reads an export file as a stream (decision 020, "At scale": Ghost), never holding the document:
 * a first pass keeps the small tables (tags, their links to posts, posts_meta, users, authors), a
 * second hands each post on as it is read, in batches of 100. Refuses what is too large, not JSON or
 * not a Ghost export (before any post is handed on), and more than GHOST_MAX_POSTS posts (on the way).
 */
export async function streamGhostExport(
  file: string,
  opts: GhostReadOptions,
  onPosts: (posts: ImportedPost[]) => Promise<void>,
): Promise<{ problems: ImportReportLine[]; posts: number; pages: number }> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${file}`);
  if (info.size > GHOST_FILE_MAX_BYTES)
    throw new SourceRefused(`the export is larger than ${GHOST_FILE_MAX_BYTES / 1024 / 1024} MB (${info.size} bytes)`);
  const tables: GhostTables = { tags: [], posts_tags: [], posts_meta: [], users: [], posts_authors: [] };
  const refused = (error: unknown): never => {
    if (error instanceof JsonTooDeep) throw new SourceTooDeep(`not a JSON file: ${error.message}`);
    if (error instanceof JsonRowsError) throw new SourceRefused(`not a JSON file: ${error.message}`);
    throw error;
  };
  const seenTables = await scanJsonRows(fileText(file), GHOST_INDEX_TABLES, (table, row) => {
    if (isRow(row)) tables[table as keyof GhostTables].push(row);
  }).catch(refused);
  if (!seenTables.has("posts")) throw new SourceRefused("not a Ghost export (no db[0].data.posts)");
  const problems: ImportReportLine[] = [];
  const read = ghostPostReader(tables, opts, problems);
  let batch: ImportedPost[] = [];
  let rowsRead = 0;
  let posts = 0;
  let pages = 0;
  await scanJsonRows(fileText(file), new Set(["posts"]), async (_table, row) => {
    if (!isRow(row)) return;
    rowsRead += 1;
    if (rowsRead > GHOST_MAX_POSTS) throw new SourceRefused(`more than ${GHOST_MAX_POSTS} posts and pages`);
    const post = read(row);
    if (!post) return;
    posts += 1;
    if (post.kind === "page") pages += 1;
    batch.push(post);
    if (batch.length >= GHOST_STREAM_BATCH) {
      const full = batch;
      batch = [];
      await onPosts(full);
    }
  }).catch(refused);
  if (batch.length > 0) await onPosts(batch);
  return { problems, posts, pages };
}

/** Ghost's own feed (`/rss/`) and where it goes here. */
export const GHOST_SITE_URLS: { from: string; to: string }[] = [{ from: "/rss/", to: "/rss.xml" }];
