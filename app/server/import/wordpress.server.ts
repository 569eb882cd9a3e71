import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { cleanDisplayName } from "../../lib/display-name.ts";
import { POST_LIMITS } from "../../lib/schemas/post.ts";
import { HAN } from "../../lib/slug.ts";
import type { Locale } from "../db/schema.server.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import {
  type ImportedAuthor,
  type ImportedComment,
  type ImportedPost,
  type ImportedRevision,
  type ImportedStatus,
  type ImportReportLine,
  parseSourceDate,
  sourceLocale,
} from "./core.server.ts";
import { htmlToMarkdown } from "./html-markdown.server.ts";
import { type ImageResolver, localImageResolver } from "./images.server.ts";
import { type SourceRead, SourceRefused } from "./markdown-folder.server.ts";

// The WordPress importer (WXR 1.1/1.2, Tools → Export; docs/decisions/022-wordpress-import.md).
// The XML is streamed through saxes (no DTD: a DOCTYPE is refused, so no entity expansion and no
// external entities) into small records per <item>; then posts and pages (pages in the "Pages"
// category, as Ghost's), their comments with replies and approval state, revisions, featured
// images and Polylang language pairs become imported posts for the shared import job.

/** The XML parser, loaded with the first export read. */
const saxesModule = lazyModule(() => import("saxes"));

export const WORDPRESS_SOURCE = "wordpress";
/** The largest export read (checked before reading). */
export const WXR_FILE_MAX_BYTES = 1024 * 1024 * 1024;
/** Items of any type (posts, attachments, revisions, menu items…) one export may hold. */
export const WXR_MAX_ITEMS = 200_000;
/** Characters the parser may buffer without reaching the end of a text or tag (a 1 GB line is refused). */
export const WXR_TOKEN_MAX = 16 * 1024 * 1024;
/** The category WordPress pages are filed under (as Ghost's pages). */
export const WORDPRESS_PAGES_CATEGORY = "Pages";

/** Bodies longer than this are not kept while reading (the post fails with bodyTooLong). */
const CONTENT_MAX = POST_LIMITS.bodyMax * 4;
/** Other fields are cut at this length while reading. */
const FIELD_MAX = 20_000;

export interface WordPressReadOptions {
  /** The blog's language where a post has no Polylang/WPML language; else a guess per post. */
  locale?: Locale | undefined;
}

interface RawComment {
  id: string;
  author: string;
  email: string;
  url: string;
  date: string;
  dateGmt: string;
  content: string;
  approved: string;
  type: string;
  parent: string;
}

interface RawItem {
  title: string;
  link: string;
  creator: string;
  content: string;
  contentTooLong: boolean;
  excerpt: string;
  id: string;
  date: string;
  dateGmt: string;
  name: string;
  status: string;
  parent: string;
  type: string;
  password: string;
  attachmentUrl: string;
  categories: { domain: string; nicename: string; name: string }[];
  meta: Map<string, string>;
  comments: RawComment[];
}

/** Post meta kept (everything else, serialized PHP included, is never looked at). */
const META_KEPT = new Set(["_thumbnail_id", "_wp_attachment_image_alt"]);

const emptyItem = (): RawItem => ({
  title: "",
  link: "",
  creator: "",
  content: "",
  contentTooLong: false,
  excerpt: "",
  id: "",
  date: "",
  dateGmt: "",
  name: "",
  status: "",
  parent: "",
  type: "",
  password: "",
  attachmentUrl: "",
  categories: [],
  meta: new Map(),
  comments: [],
});

const emptyComment = (): RawComment => ({
  id: "",
  author: "",
  email: "",
  url: "",
  date: "",
  dateGmt: "",
  content: "",
  approved: "",
  type: "",
  parent: "",
});

/** An author as the export's channel lists it (`wp:author`). */
export interface WxrAuthor {
  name: string;
  email: string;
}

export interface WxrDocument {
  version: string;
  /** Login → the author's display name and e-mail. */
  authors: Map<string, WxrAuthor>;
  /** Category nicename → its parent's nicename ("" at the top), from the channel's wp:category list. */
  categoryParents: Map<string, string>;
  items: RawItem[];
}

const ITEM_FIELDS: Record<string, keyof RawItem> = {
  title: "title",
  link: "link",
  "dc:creator": "creator",
  "content:encoded": "content",
  "excerpt:encoded": "excerpt",
  "wp:post_id": "id",
  "wp:post_date": "date",
  "wp:post_date_gmt": "dateGmt",
  "wp:post_name": "name",
  "wp:status": "status",
  "wp:post_parent": "parent",
  "wp:post_type": "type",
  "wp:post_password": "password",
  "wp:attachment_url": "attachmentUrl",
};

const COMMENT_FIELDS: Record<string, keyof RawComment> = {
  "wp:comment_id": "id",
  "wp:comment_author": "author",
  "wp:comment_author_email": "email",
  "wp:comment_author_url": "url",
  "wp:comment_date": "date",
  "wp:comment_date_gmt": "dateGmt",
  "wp:comment_content": "content",
  "wp:comment_approved": "approved",
  "wp:comment_type": "type",
  "wp:comment_parent": "parent",
};

/**
 * Parses WXR text given in pieces (a file stream's chunks), keeping only what the importer uses.
 * Refuses a DOCTYPE, malformed XML, a document that is not a WordPress export, too many items and
 * a text or tag longer than WXR_TOKEN_MAX.
 */
export async function parseWxr(
  chunks: AsyncIterable<string> | Iterable<string>,
  opts: {
    /** Each item as it closes, instead of keeping it in `items` (a reader that streams). */
    onItem?: (item: RawItem) => void;
    /** After each piece is parsed: where a streaming reader hands on what it has. */
    afterChunk?: () => Promise<void>;
  } = {},
): Promise<WxrDocument> {
  const { SaxesParser } = await saxesModule();
  const parser = new SaxesParser({ position: true });
  let itemCount = 0;
  const doc: WxrDocument = { version: "", authors: new Map(), categoryParents: new Map(), items: [] };
  const stack: string[] = [];
  let text = "";
  let textTooLong = false;
  let item: RawItem | null = null;
  let comment: RawComment | null = null;
  let category: RawItem["categories"][number] | null = null;
  let metaKey = "";
  let metaValue = "";
  let authorLogin = "";
  let authorName = "";
  let authorEmail = "";
  let categoryNicename = "";
  let categoryParent = "";
  let rootSeen = false;
  let pending = 0;
  let failure: Error | null = null;

  const fail = (message: string) => {
    failure ??= new SourceRefused(message);
  };
  const limitFor = (name: string) => (name === "content:encoded" ? CONTENT_MAX : FIELD_MAX);
  const addText = (t: string) => {
    pending = 0;
    const name = stack[stack.length - 1] ?? "";
    if (textTooLong) return;
    if (text.length + t.length > limitFor(name)) {
      textTooLong = true;
      text += t.slice(0, Math.max(0, limitFor(name) - text.length));
      return;
    }
    text += t;
  };

  parser.on("doctype", () => fail("a DOCTYPE is not allowed in a WordPress export (entity expansion is refused)"));
  parser.on("processinginstruction", () => {
    pending = 0;
  });
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("opentag", (tag) => {
    pending = 0;
    if (!rootSeen) {
      rootSeen = true;
      if (tag.name !== "rss") fail(`not a WordPress export (the root element is <${tag.name.slice(0, 40)}>)`);
    }
    stack.push(tag.name);
    text = "";
    textTooLong = false;
    if (tag.name === "item" && stack.length === 3) {
      if (!doc.version) fail("not a WordPress export (no wp:wxr_version before the first item)");
      if (itemCount >= WXR_MAX_ITEMS) fail(`more than ${WXR_MAX_ITEMS} items`);
      item = emptyItem();
    } else if (item && tag.name === "wp:comment") comment = emptyComment();
    else if (item && tag.name === "category" && !comment) {
      const attr = (n: string) => {
        const v = tag.attributes[n];
        return typeof v === "string" ? v : "";
      };
      category = { domain: attr("domain"), nicename: attr("nicename"), name: "" };
    } else if (item && tag.name === "wp:postmeta") {
      metaKey = "";
      metaValue = "";
    } else if (tag.name === "wp:author" && !item) {
      authorLogin = "";
      authorName = "";
      authorEmail = "";
    }
  });
  parser.on("closetag", (tag) => {
    pending = 0;
    const name = tag.name;
    const value = text;
    const tooLong = textTooLong;
    stack.pop();
    text = "";
    textTooLong = false;
    const parent = stack[stack.length - 1] ?? "";
    if (name === "wp:wxr_version" && parent === "channel") {
      doc.version = value.trim();
      if (!/^1\.[0-2]$/.test(doc.version)) fail(`unsupported WXR version ${doc.version.slice(0, 20)}`);
      return;
    }
    if (!item) {
      if (name === "wp:author_login") authorLogin = value.trim();
      else if (name === "wp:author_display_name") authorName = value.trim();
      else if (name === "wp:author_email") authorEmail = value.trim();
      else if (name === "wp:author" && authorLogin && doc.authors.size < WXR_MAX_ITEMS)
        doc.authors.set(authorLogin, { name: authorName || authorLogin, email: authorEmail });
      else if (name === "wp:category_nicename") categoryNicename = value.trim();
      else if (name === "wp:category_parent") categoryParent = value.trim();
      else if (name === "wp:category" && categoryNicename && doc.categoryParents.size < WXR_MAX_ITEMS) {
        doc.categoryParents.set(categoryNicename, categoryParent);
        categoryNicename = "";
        categoryParent = "";
      }
      return;
    }
    if (comment) {
      const field = COMMENT_FIELDS[name];
      if (field && parent === "wp:comment") comment[field] = value;
      else if (name === "wp:comment") {
        item.comments.push(comment);
        comment = null;
      }
      return;
    }
    if (name === "item") {
      itemCount += 1;
      if (opts.onItem) opts.onItem(item);
      else doc.items.push(item);
      item = null;
      return;
    }
    if (category && name === "category") {
      category.name = value.trim();
      item.categories.push(category);
      category = null;
      return;
    }
    if (parent === "wp:postmeta") {
      if (name === "wp:meta_key") metaKey = value.trim();
      else if (name === "wp:meta_value") metaValue = value;
      return;
    }
    if (name === "wp:postmeta") {
      if (META_KEPT.has(metaKey)) item.meta.set(metaKey, metaValue.trim());
      return;
    }
    const field = ITEM_FIELDS[name];
    if (field && parent === "item") {
      if (field === "content") {
        item.content = value;
        item.contentTooLong = tooLong;
      } else if (field !== "categories" && field !== "meta" && field !== "comments" && field !== "contentTooLong") {
        item[field] = value;
      }
    }
  });
  parser.on("error", (error) => {
    fail(`not well-formed XML: ${error.message.slice(0, 200)}`);
  });

  for await (const chunk of chunks) {
    pending += chunk.length;
    try {
      parser.write(chunk);
    } catch (error) {
      fail(`not well-formed XML: ${error instanceof Error ? error.message.slice(0, 200) : ""}`);
    }
    if (failure) throw failure;
    if (pending > WXR_TOKEN_MAX) throw new SourceRefused(`a text or tag longer than ${WXR_TOKEN_MAX} characters`);
    if (opts.afterChunk) await opts.afterChunk();
  }
  if (!rootSeen && !failure) throw new SourceRefused("not an XML file");
  try {
    parser.close();
  } catch (error) {
    fail(`not well-formed XML: ${error instanceof Error ? error.message.slice(0, 200) : ""}`);
  }
  if (failure) throw failure;
  if (!doc.version) throw new SourceRefused("not a WordPress export (no wp:wxr_version)");
  return doc;
}

/** Streams and parses an export file; refuses what is too large, not XML or not WXR. */
export async function loadWxr(file: string): Promise<WxrDocument> {
  await checkWxrFile(file);
  return parseWxrFile(file);
}

async function checkWxrFile(file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${file}`);
  if (info.size > WXR_FILE_MAX_BYTES)
    throw new SourceRefused(`the export is larger than ${WXR_FILE_MAX_BYTES / 1024 / 1024} MB (${info.size} bytes)`);
}

async function parseWxrFile(file: string, opts: Parameters<typeof parseWxr>[1] = {}): Promise<WxrDocument> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 64 * 1024 });
  try {
    return await parseWxr(stream, opts);
  } finally {
    stream.destroy();
  }
}

/** Text already in memory (an upload) in the pieces a file stream would give. */
export function* wxrChunks(text: string, size = 64 * 1024): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

// ---------------------------------------------------------------------------------------------
// Content

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** HTML as plain text (summaries): tags dropped, common entities decoded, white space collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<\/?(p|div|br|hr|h[1-6]|li|ul|ol|blockquote|figure|figcaption|pre|tr|td|th|table)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isInteger(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : " ";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeHtml(s).replace(/"/g, "&quot;");

/** A shortcode's attributes: `a="x" b='y' c=z`. */
function shortcodeAttrs(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g))
    if (m[1]) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

const BLOCK_START =
  /^<\/?(p|div|h[1-6]|ul|ol|li|blockquote|pre|figure|table|thead|tbody|tr|td|th|hr|dl|dt|dd|section|article|aside|header|footer|nav|form|fieldset|address|details|summary|iframe|video|audio|object|embed|script|style)\b/i;

/**
 * WordPress's automatic paragraphs, as much as an import needs: text separated by blank lines
 * becomes paragraphs and single line breaks `<br>`, unless the piece already starts with a block.
 */
export function autoParagraphs(html: string): string {
  return html
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => (BLOCK_START.test(piece) ? piece : `<p>${piece.replace(/\n/g, "<br>")}</p>`))
    .join("\n\n");
}

export interface Attachment {
  url: string;
  alt: string;
  parent: string;
}

export interface ConvertedContent {
  markdown: string;
  /** The text before `<!--more-->`, plain (null without the marker). */
  teaser: string | null;
  /** Names of shortcodes left as text. */
  shortcodesKept: string[];
  keptAsHtml: string[];
  flattened: boolean;
  galleriesEmpty: number;
}

/**
 * A post's `content:encoded` as Markdown: Gutenberg block comments stripped, `<!--more-->`
 * found (its teaser kept for the summary) and removed, `[code]`/`[sourcecode]`, `[caption]` and
 * `[gallery]` converted, other shortcodes left as text (and listed), automatic paragraphs made,
 * then the shared HTML converter (which drops script-like links, scripts and styles).
 */
export function convertContent(
  raw: string,
  ctx: { postId: string; attachments: Map<string, Attachment> },
): ConvertedContent {
  // U+E000 marks blocks kept aside below: never taken from the content.
  let html = raw
    .replace(/\uE000/g, "")
    .replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "")
    .replace(/<!--nextpage-->/g, "");
  let teaser: string | null = null;
  const more = /<!--more(?:\s[^>]*?)?-->/.exec(html);
  if (more) {
    teaser = plainText(html.slice(0, more.index));
    html = html.replace(/<!--more(?:\s[^>]*?)?-->/g, "");
  }
  // Code first, kept aside so nothing below (paragraphs, other shortcodes) touches it.
  const kept: string[] = [];
  const keep = (block: string) => `\n\n\uE000${kept.push(block) - 1}\uE000\n\n`;
  html = html.replace(
    /\[(code|sourcecode)((?:\s[^\]]*)?)\]([\s\S]*?)\[\/\1\]/gi,
    (_m, _n, attrs: string, code: string) => {
      const a = shortcodeAttrs(attrs);
      const lang = (a.lang ?? a.language ?? "").replace(/[^\w+#.-]/g, "");
      const cls = lang ? ` class="language-${lang}"` : "";
      return keep(`<pre><code${cls}>${escapeHtml(code.replace(/^\n/, ""))}</code></pre>`);
    },
  );
  html = html.replace(/<pre\b[\s\S]*?<\/pre>/gi, (block) => keep(block));
  html = html.replace(/\[caption((?:\s[^\]]*)?)\]([\s\S]*?)\[\/caption\]/gi, (_m, attrs: string, inner: string) => {
    const media = /^\s*(?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?/i.exec(inner);
    const image = media?.[0]?.trim() ?? "";
    const caption = (media ? inner.slice(media[0].length) : inner).trim() || shortcodeAttrs(attrs).caption || "";
    return `\n\n<figure>${image}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>\n\n`;
  });
  let galleriesEmpty = 0;
  html = html.replace(/\[gallery((?:\s[^\]]*)?)\]/gi, (_m, attrs: string) => {
    const a = shortcodeAttrs(attrs);
    const ids = (a.ids ?? a.include ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const pictures = ids.length
      ? ids.map((id) => ctx.attachments.get(id)).filter((x): x is Attachment => !!x)
      : [...ctx.attachments.values()].filter((x) => x.parent === ctx.postId);
    if (pictures.length === 0) {
      galleriesEmpty += 1;
      return "";
    }
    return `\n\n<p>${pictures.map((p) => `<img src="${escapeAttr(p.url)}" alt="${escapeAttr(p.alt)}">`).join("\n")}</p>\n\n`;
  });
  const shortcodes = new Set<string>();
  for (const m of html.matchAll(/\[\/?([a-z][\w-]*)((?:\s[^\]\n]*)?)\]/gi)) {
    const attrs = m[2] ?? "";
    const closing = m[0].startsWith("[/");
    if (m[1] && (closing || attrs.trim() === "" || attrs.includes("="))) shortcodes.add(m[1].toLowerCase());
  }
  html = autoParagraphs(html).replace(/\uE000(\d+)\uE000/g, (_m, i: string) => kept[Number(i)] ?? "");
  const converted = htmlToMarkdown(html);
  return {
    markdown: converted.markdown,
    teaser,
    shortcodesKept: [...shortcodes],
    keptAsHtml: converted.keptAsHtml,
    flattened: converted.flattened,
    galleriesEmpty,
  };
}

// ---------------------------------------------------------------------------------------------
// Items → imported posts

/** A date as WordPress writes it (`0000-00-00 00:00:00` is none), as UTC ISO. */
function wpDate(gmt: string, local: string): string | null {
  const g = gmt.trim();
  if (g && !g.startsWith("0000")) {
    const d = parseSourceDate(g);
    if (d) return d;
  }
  const l = local.trim();
  return l && !l.startsWith("0000") ? parseSourceDate(l) : null;
}

/** A category's address path (`tea/green-tea`): its nicename under its parents', as WordPress links it. */
function categoryPath(nicename: string, parents: Map<string, string>): string {
  const chain = [nicename];
  const seen = new Set(chain);
  let parent = parents.get(nicename) ?? "";
  while (parent && !seen.has(parent) && chain.length < 20) {
    chain.unshift(parent);
    seen.add(parent);
    parent = parents.get(parent) ?? "";
  }
  return chain.join("/");
}

function decodeSlug(name: string): string {
  try {
    return decodeURIComponent(name.trim());
  } catch {
    return name.trim();
  }
}

/** A link as a site path with its query (`https://blog.example/2020/01/x/` → `/2020/01/x/`). */
function sitePath(link: string): string | null {
  const l = link.trim();
  if (!l) return null;
  try {
    const u = new URL(l, "http://old.invalid");
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

function cut(text: string, max: number, what: string, item: string, notes: ImportReportLine[]): string {
  if (text.length <= max) return text;
  notes.push({ item, outcome: "note", reason: `${what}Cut`, detail: `cut to ${max} characters` });
  return text.slice(0, max).trimEnd();
}

/** One WordPress post or page in one language, before pairing. */
interface Version {
  id: string;
  label: string;
  locale: Locale;
  explicitLocale: boolean;
  group: string | null;
  title: string;
  summary: string;
  body: string;
  slug: string | null;
  publishedAt: string | null;
  status: ImportedStatus;
  tags: string[];
  tagUrls: { from: string; tag: string }[];
  categories: string[];
  categoryUrls: string[];
  cover: string | null;
  coverAlt: string;
  oldUrls: string[];
  notes: ImportReportLine[];
  comments: ImportedComment[];
  revisions: ImportedRevision[];
  author: ImportedAuthor | null;
}

/**
 * A post's WordPress author (`dc:creator`, a login) with what the channel says of them. Their old
 * page is `/author/{nicename}/`; the export has no nicename, which WordPress makes from the login
 * (lowercase, `.` and spaces as `-`, `@` dropped), so both the login and that guess are redirected.
 */
export function wordpressAuthor(creator: string, authors: Map<string, WxrAuthor>): ImportedAuthor | null {
  const login = creator.trim();
  if (!login || login.length > 60) return null;
  const known = authors.get(login);
  const email = known?.email.trim().toLowerCase() ?? "";
  const nicename = login
    .toLowerCase()
    .replace(/@/g, "")
    .replace(/[\s.]+/g, "-")
    .replace(/[^a-z0-9_-]/g, "");
  const urls = new Set<string>();
  for (const slug of [login, nicename])
    if (/^[\w.@-]{1,60}$/.test(slug)) urls.add(`/author/${encodeURIComponent(slug)}/`);
  return {
    sourceId: login,
    name: cleanDisplayName(known?.name || login),
    email: email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null,
    oldUrls: [...urls],
  };
}

/** The comments readers may see or a moderator may approve, replies attached to their top-level comment. */
function readComments(item: RawItem, label: string, fallbackDate: string, notes: ImportReportLine[]) {
  const byId = new Map(item.comments.map((c) => [c.id.trim(), c]));
  let dropped = 0;
  let pings = 0;
  const keptIds = new Set<string>();
  for (const c of item.comments) {
    const type = c.type.trim();
    if (type === "pingback" || type === "trackback") {
      pings += 1;
      continue;
    }
    const approved = c.approved.trim();
    if (approved !== "1" && approved !== "0") {
      dropped += 1;
      continue;
    }
    if (c.id.trim()) keptIds.add(c.id.trim());
  }
  const out: ImportedComment[] = [];
  for (const id of keptIds) {
    const c = byId.get(id);
    if (!c) continue;
    // The top-most kept ancestor: replies to replies (and to spam) attach to a kept top-level comment.
    let root: string | null = null;
    const seen = new Set<string>([id]);
    let p = c.parent.trim();
    while (p && p !== "0" && !seen.has(p)) {
      seen.add(p);
      if (keptIds.has(p)) root = p;
      p = byId.get(p)?.parent.trim() ?? "";
    }
    const body = htmlToMarkdown(autoParagraphs(c.content)).markdown.trim();
    if (!body) continue;
    out.push({
      sourceId: id,
      parentSourceId: root,
      status: c.approved.trim() === "1" ? "approved" : "pending",
      authorName: plainText(c.author).slice(0, 100) || "Anonymous",
      authorEmail: c.email.trim().slice(0, 254) || null,
      authorUrl: /^https?:\/\//i.test(c.url.trim()) ? c.url.trim().slice(0, 500) : null,
      createdAt: wpDate(c.dateGmt, c.date) ?? fallbackDate,
      bodyMarkdown: body,
    });
  }
  if (dropped > 0) notes.push({ item: label, outcome: "note", reason: "wpCommentsSpam", detail: String(dropped) });
  if (pings > 0) notes.push({ item: label, outcome: "note", reason: "wpPingbacks", detail: String(pings) });
  // Parents before replies, each in date order.
  return out.sort(
    (a, b) =>
      Number(a.parentSourceId !== null) - Number(b.parentSourceId !== null) ||
      a.createdAt.localeCompare(b.createdAt) ||
      a.sourceId.localeCompare(b.sourceId, "en", { numeric: true }),
  );
}

/** What a first pass over an export learns, so the second can turn each item into a post as it closes. */
interface WxrIndex {
  attachments: Map<string, Attachment>;
  /** Attachment items, for the command's summary. */
  attachmentItems: number;
  /** Revisions by their post's id (kept whole until that post is read: exports rarely carry them). */
  revisionsOf: Map<string, RawItem[]>;
  /** Polylang/WPML translation group → the versions in it that will be read, in export order. */
  groups: Map<string, { id: string; lang: Locale | null; locale: Locale }[]>;
  seen: Set<string>;
}

const newIndex = (): WxrIndex => ({
  attachments: new Map(),
  attachmentItems: 0,
  revisionsOf: new Map(),
  groups: new Map(),
  seen: new Set(),
});

/** Why a post or page item is not read into a post (null when it is). */
function itemRefusal(
  it: RawItem,
  seen: Set<string>,
): "wpNoId" | "wpDuplicateId" | "wpTrash" | "wpAutoDraft" | "bodyTooLong" | null {
  const id = it.id.trim();
  if (!/^\d+$/.test(id)) return "wpNoId";
  if (seen.has(id)) return "wpDuplicateId";
  seen.add(id);
  const raw = it.status.trim();
  if (raw === "trash") return "wpTrash";
  if (raw === "auto-draft" || raw === "inherit") return "wpAutoDraft";
  if (it.contentTooLong) return "bodyTooLong";
  return null;
}

/** The first pass: attachments, revisions and the translation groups of the posts that will be read. */
function indexItem(index: WxrIndex, it: RawItem, opts: WordPressReadOptions): void {
  const type = it.type.trim();
  if (type === "attachment") {
    index.attachmentItems += 1;
    if (it.id.trim() && it.attachmentUrl.trim())
      index.attachments.set(it.id.trim(), {
        url: it.attachmentUrl.trim(),
        alt: it.meta.get("_wp_attachment_image_alt") ?? "",
        parent: it.parent.trim(),
      });
  } else if (type === "revision" && it.parent.trim() && !/-autosave-/.test(it.name)) {
    const list = index.revisionsOf.get(it.parent.trim()) ?? [];
    list.push(it);
    index.revisionsOf.set(it.parent.trim(), list);
  } else if ((type === "post" || type === "page") && itemRefusal(it, index.seen) === null) {
    let lang: Locale | null = null;
    let group: string | null = null;
    for (const c of it.categories) {
      if (c.domain === "language") lang = sourceLocale(c.nicename) ?? sourceLocale(plainText(c.name)) ?? lang;
      else if (c.domain === "post_translations" && c.nicename) group = c.nicename;
    }
    if (group) {
      const title = plainText(it.title);
      const locale = lang ?? opts.locale ?? (HAN.test(title || it.content.slice(0, 500)) ? "zh" : "en");
      const list = index.groups.get(group) ?? [];
      list.push({ id: it.id.trim(), lang, locale });
      index.groups.set(group, list);
    }
  }
}

/**
 * The second pass: each post or page item becomes an imported post as it closes (a Polylang pair
 * when its partner, known from the first pass, has been read too), so only what is not yet handed
 * on is held. `finish` adds the report lines that need the whole export.
 */
class WxrReader {
  readonly problems: ImportReportLine[] = [];
  private readonly skippedTypes = new Map<string, number>();
  private readonly seen = new Set<string>();
  private readonly partner = new Map<string, string>();
  private readonly ambiguous = new Map<string, string>();
  private readonly held = new Map<string, Version>();
  private siteUrlsGiven = false;
  private readonly now = new Date().toISOString();
  private readonly index: WxrIndex;
  private readonly doc: Pick<WxrDocument, "authors" | "categoryParents">;
  private readonly opts: WordPressReadOptions;

  constructor(index: WxrIndex, doc: Pick<WxrDocument, "authors" | "categoryParents">, opts: WordPressReadOptions) {
    this.index = index;
    this.doc = doc;
    this.opts = opts;
    // Polylang/WPML pairs: exactly one English and one Chinese version sharing a translation group.
    for (const [key, list] of index.groups) {
      if (list.length < 2) continue;
      const en = list.filter((v) => v.lang === "en");
      const zh = list.filter((v) => v.lang === "zh");
      if (list.length === 2 && en.length === 1 && zh.length === 1 && en[0] && zh[0]) {
        this.partner.set(en[0].id, zh[0].id).set(zh[0].id, en[0].id);
      } else {
        const detail = `${key.slice(0, 80)}: ${list.map((x) => `${x.id}/${x.locale}`).join(", ")}`;
        for (const v of list) this.ambiguous.set(v.id, detail);
      }
    }
  }

  /** The blog's own old addresses (its feeds) ride on the first post handed on (decision 022). */
  private withSiteUrls(posts: ImportedPost[]): ImportedPost[] {
    const [first] = posts;
    if (first && !this.siteUrlsGiven) {
      this.siteUrlsGiven = true;
      first.siteUrls = WORDPRESS_SITE_URLS;
    }
    return posts;
  }

  /** The posts this item completes (none, one, or a pair). */
  add(it: RawItem): ImportedPost[] {
    return this.withSiteUrls(this.addItem(it));
  }

  private addItem(it: RawItem): ImportedPost[] {
    const v = this.version(it);
    if (!v) return [];
    const detail = this.ambiguous.get(v.id);
    if (detail) v.notes.push({ item: v.label, outcome: "ambiguous", reason: "pairingAmbiguous", detail });
    const other = this.partner.get(v.id);
    if (!other) return [single(v)];
    const first = this.held.get(other);
    if (!first) {
      this.held.set(v.id, v);
      return [];
    }
    this.held.delete(other);
    return [v.locale === "en" ? pairOf(v, first) : pairOf(first, v)];
  }

  /** What is left once every item was added (nothing held, for an export read twice the same way). */
  finish(): ImportedPost[] {
    for (const [type, n] of this.skippedTypes)
      this.problems.push({
        item: type || "(no type)",
        outcome: "skipped",
        reason: "wpPostType",
        detail: `${n} item(s)`,
      });
    const rest = [...this.held.values()].map(single);
    this.held.clear();
    return this.withSiteUrls(rest);
  }

  private version(it: RawItem): Version | null {
    const { index, doc, opts, problems, now } = this;
    const attachments = index.attachments;
    const revisionsOf = index.revisionsOf;
    const type = it.type.trim();
    if (type !== "post" && type !== "page") {
      if (type !== "attachment" && type !== "revision")
        this.skippedTypes.set(type, (this.skippedTypes.get(type) ?? 0) + 1);
      return null;
    }
    const id = it.id.trim();
    const title = plainText(it.title);
    const label = `${title || "(untitled)"} [${id || "?"}]`.slice(0, 300);
    const refusal = itemRefusal(it, this.seen);
    if (refusal) {
      problems.push({
        item: label,
        outcome: refusal === "wpTrash" || refusal === "wpAutoDraft" ? "skipped" : "failed",
        reason: refusal,
      });
      return null;
    }
    const raw = it.status.trim();
    const notes: ImportReportLine[] = [];
    const converted = convertContent(it.content, { postId: id, attachments });
    // The raw text is not needed again: let it go while the rest is read (big exports).
    it.content = "";
    for (const s of converted.shortcodesKept)
      notes.push({ item: label, outcome: "note", reason: "wpShortcodeKept", detail: `[${s}]` });
    for (const k of converted.keptAsHtml)
      notes.push({ item: label, outcome: "note", reason: "wpKeptAsHtml", detail: k });
    if (converted.flattened) notes.push({ item: label, outcome: "note", reason: "ghostFlattened" });
    if (converted.galleriesEmpty > 0) notes.push({ item: label, outcome: "note", reason: "wpGalleryEmpty" });

    const publishedAt = wpDate(it.dateGmt, it.date);
    let status: ImportedStatus = "draft";
    if (raw === "publish") status = publishedAt && Date.parse(publishedAt) > Date.now() ? "scheduled" : "published";
    else if (raw === "future") status = publishedAt && Date.parse(publishedAt) > Date.now() ? "scheduled" : "published";
    else if (raw === "private") notes.push({ item: label, outcome: "note", reason: "wpPrivate" });
    else if (raw !== "draft" && raw !== "pending")
      notes.push({ item: label, outcome: "note", reason: "wpStatus", detail: raw.slice(0, 40) });
    if (raw === "future" && !publishedAt) status = "draft";
    if (it.password.trim() && status !== "draft") {
      status = "draft";
      notes.push({ item: label, outcome: "note", reason: "wpPassword" });
    }

    const tags: string[] = [];
    const tagUrls: { from: string; tag: string }[] = [];
    const categories: string[] = [];
    const categoryPaths = new Map<string, string>();
    let lang: Locale | null = null;
    let group: string | null = null;
    for (const c of it.categories) {
      const name = plainText(c.name).slice(0, 100);
      if (c.domain === "post_tag" && name) {
        if (!tags.includes(name)) tags.push(name);
        if (c.nicename) tagUrls.push({ from: `/tag/${c.nicename}/`, tag: name });
      } else if (c.domain === "category" && name && c.nicename !== "uncategorized") {
        if (!categories.includes(name)) categories.push(name);
        if (c.nicename && !categoryPaths.has(name))
          categoryPaths.set(name, categoryPath(c.nicename, doc.categoryParents));
      } else if (c.domain === "language") lang = sourceLocale(c.nicename) ?? sourceLocale(name) ?? lang;
      else if (c.domain === "post_translations" && c.nicename) group = c.nicename;
    }
    if (type === "page") categories.unshift(WORDPRESS_PAGES_CATEGORY);
    // The first category is the post's here (its page gets /category/…); the others become tags.
    const categoryUrls: string[] = [];
    categories.forEach((name, i) => {
      const p = categoryPaths.get(name);
      if (!p) return;
      if (i === 0) categoryUrls.push(`/category/${p}/`);
      else tagUrls.push({ from: `/category/${p}/`, tag: name.slice(0, POST_LIMITS.tagMax) });
    });
    const author = wordpressAuthor(it.creator, doc.authors);

    const thumb = it.meta.get("_thumbnail_id");
    const coverAttachment = thumb ? attachments.get(thumb) : undefined;
    if (thumb && !coverAttachment) notes.push({ item: label, outcome: "note", reason: "wpThumbnailMissing" });
    const slug = it.name.trim() ? decodeSlug(it.name) : null;
    const oldUrls = new Set<string>();
    const linkPath = sitePath(it.link);
    if (linkPath && linkPath !== "/") oldUrls.add(linkPath);
    oldUrls.add(type === "page" ? `/?page_id=${id}` : `/?p=${id}`);
    if (slug && status === "published") {
      const encoded = it.name.trim();
      oldUrls.add(`/${encoded}/`);
      const d = /^(\d{4})-(\d{2})-(\d{2})/.exec(it.date.trim());
      if (type === "post" && d) {
        oldUrls.add(`/${d[1]}/${d[2]}/${d[3]}/${encoded}/`);
        oldUrls.add(`/${d[1]}/${d[2]}/${encoded}/`);
      }
    }
    const locale: Locale = lang ?? opts.locale ?? (HAN.test(title || converted.markdown.slice(0, 500)) ? "zh" : "en");
    const revisions: ImportedRevision[] = (revisionsOf.get(id) ?? [])
      .map((r): ImportedRevision | null => {
        const at = wpDate(r.dateGmt, r.date);
        if (!at || r.contentTooLong || !/^\d+$/.test(r.id.trim())) return null;
        const revision: ImportedRevision = {
          sourceId: r.id.trim(),
          locale,
          title:
            plainText(r.title).slice(0, POST_LIMITS.titleMax) || title.slice(0, POST_LIMITS.titleMax) || slug || id,
          summary: plainText(r.excerpt).slice(0, POST_LIMITS.summaryMax),
          bodyMarkdown: convertContent(r.content, { postId: id, attachments }).markdown.slice(0, POST_LIMITS.bodyMax),
          createdAt: at,
        };
        r.content = "";
        return revision;
      })
      .filter((r): r is ImportedRevision => r !== null)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    revisionsOf.delete(id);
    const version: Version = {
      id,
      label,
      locale,
      explicitLocale: lang !== null,
      group,
      title: cut((title || slug || id).replace(/\s+/g, " "), POST_LIMITS.titleMax, "title", label, notes),
      summary: cut(plainText(it.excerpt) || converted.teaser || "", POST_LIMITS.summaryMax, "summary", label, notes),
      body: converted.markdown,
      slug,
      publishedAt,
      status,
      tags,
      tagUrls,
      categories,
      categoryUrls,
      cover: coverAttachment?.url ?? null,
      coverAlt: (coverAttachment?.alt ?? "").slice(0, 300),
      oldUrls: [...oldUrls],
      notes,
      comments: readComments(it, label, publishedAt ?? now, notes),
      revisions,
      author,
    };
    it.comments = [];
    return version;
  }
}

/** Reads a parsed export into imported posts (Polylang pairs as one post); it empties the items' texts as it goes. Nothing is written. */
export function readWxr(doc: WxrDocument, opts: WordPressReadOptions = {}): SourceRead {
  const index = newIndex();
  for (const it of doc.items) indexItem(index, it, opts);
  const reader = new WxrReader(index, doc, opts);
  const posts: ImportedPost[] = [];
  for (const it of doc.items) posts.push(...reader.add(it));
  posts.push(...reader.finish());
  return { posts, problems: reader.problems, files: 1 };
}

/**
 * Reads an export file in two streamed passes, handing its posts on in batches as they are read
 * (docs/decisions/022-wordpress-import.md, "At scale"): the first pass keeps the attachments,
 * revisions and translation groups, the second turns each item into a post as it closes. Memory
 * holds one batch and what a post waits for (its Polylang partner), not the export.
 */
export async function streamWxr(
  file: string,
  opts: WordPressReadOptions,
  onPosts: (posts: ImportedPost[]) => Promise<void>,
  batch = 100,
): Promise<{ problems: ImportReportLine[]; attachments: number }> {
  await checkWxrFile(file);
  const index = newIndex();
  const doc = await parseWxrFile(file, { onItem: (it) => indexItem(index, it, opts) });
  const reader = new WxrReader(index, doc, opts);
  const ready: ImportedPost[] = [];
  await parseWxrFile(file, {
    onItem: (it) => {
      ready.push(...reader.add(it));
    },
    afterChunk: async () => {
      if (ready.length >= batch) await onPosts(ready.splice(0));
    },
  });
  ready.push(...reader.finish());
  if (ready.length > 0) await onPosts(ready.splice(0));
  return { problems: reader.problems, attachments: index.attachmentItems };
}

const translationOf = (v: Version) => ({
  locale: v.locale,
  title: v.title,
  summary: v.summary,
  bodyMarkdown: v.body,
  origin: `${v.categories[0] === WORDPRESS_PAGES_CATEGORY ? "page" : "post"} ${v.id}`,
});

function single(v: Version): ImportedPost {
  return {
    sourceId: v.id,
    label: v.label,
    translations: [translationOf(v)],
    slug: v.slug,
    publishedAt: v.publishedAt,
    status: v.status,
    tags: v.tags,
    categories: v.categories,
    cover: v.cover,
    coverAlt: v.coverAlt,
    oldUrls: v.oldUrls,
    tagUrls: v.tagUrls,
    categoryUrls: v.categoryUrls,
    assetDirs: [""],
    notes: v.notes,
    comments: v.comments,
    revisions: v.revisions,
    ...(v.author ? { author: v.author } : {}),
  };
}

/** One post in two languages: shared fields from the English version first. */
function pairOf(en: Version, zh: Version): ImportedPost {
  const label = `${en.title} / ${zh.title} [${en.id}+${zh.id}]`.slice(0, 300);
  const notes = [...en.notes, ...zh.notes];
  let status = en.status;
  if (en.status !== zh.status) {
    status = en.status === "draft" || zh.status === "draft" ? "draft" : en.status;
    if (status === "draft") notes.push({ item: label, outcome: "note", reason: "statusMixed" });
  }
  const union = <T>(a: T[], b: T[]) => [...new Set([...a, ...b])];
  const tagUrls = [...en.tagUrls, ...zh.tagUrls.filter((t) => !en.tagUrls.some((e) => e.from === t.from))];
  return {
    sourceId: `${en.id}+${zh.id}`,
    label,
    translations: [translationOf(en), translationOf(zh)],
    slug: en.slug ?? zh.slug,
    publishedAt: en.publishedAt ?? zh.publishedAt,
    status,
    tags: union(en.tags, zh.tags),
    categories: union(en.categories, zh.categories),
    cover: en.cover ?? zh.cover,
    coverAlt: en.cover ? en.coverAlt : zh.coverAlt,
    oldUrls: union(en.oldUrls, zh.oldUrls),
    tagUrls,
    // The pair's category is the English version's first (then the Chinese one's).
    categoryUrls: en.categoryUrls.length > 0 ? en.categoryUrls : zh.categoryUrls,
    assetDirs: [""],
    notes,
    comments: [...en.comments, ...zh.comments],
    revisions: [...en.revisions, ...zh.revisions].sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
    ...((en.author ?? zh.author) ? { author: en.author ?? zh.author ?? undefined } : {}),
  };
}

/**
 * WordPress's feeds and where they go here: the posts feed (RSS 2 at `/feed/`, `/feed/rss2/`, the
 * old `/feed/rss/`; Atom at `/feed/atom/`), and under Polylang's language prefixes. The comments
 * feed (`/comments/feed/`) has no counterpart here and is not redirected.
 */
export const WORDPRESS_SITE_URLS: { from: string; to: string }[] = ["", "/en", "/zh"].flatMap((prefix) => [
  { from: `${prefix}/feed/`, to: `${prefix}/rss.xml` },
  { from: `${prefix}/feed/rss2/`, to: `${prefix}/rss.xml` },
  { from: `${prefix}/feed/rss/`, to: `${prefix}/rss.xml` },
  { from: `${prefix}/feed/atom/`, to: `${prefix}/atom.xml` },
]);

const UPLOADS = /\/wp-content\/uploads\/(.+)$/;

/**
 * Finds `…/wp-content/uploads/…` images (on any host: the old site, a CDN) under the given folder,
 * which may be the uploads folder itself, `wp-content` or the WordPress root. Not found, they are
 * reported and stay links; other remote images stay links.
 */
export function wordpressImageResolver(root: string, maxBytes: number): ImageResolver {
  const local = localImageResolver(root, maxBytes);
  return {
    resolve(ref, assetDirs) {
      let pathname = ref.split(/[?#]/)[0] ?? "";
      try {
        if (/^(https?:)?\/\//i.test(ref)) pathname = new URL(ref, "http://old.invalid").pathname;
      } catch {
        // Kept as written.
      }
      const m = UPLOADS.exec(pathname);
      if (m?.[1]) return local.resolve(m[1], ["", "uploads", "wp-content/uploads"]);
      return local.resolve(ref, assetDirs);
    },
  };
}
