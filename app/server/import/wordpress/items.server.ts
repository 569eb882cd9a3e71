import { cleanDisplayName } from "../../../lib/display-name.ts";
import { POST_LIMITS } from "../../../lib/schemas/post.ts";
import { HAN } from "../../../lib/slug.ts";
import type { Locale } from "../../db/schema.server.ts";
import {
  type ImportedAuthor,
  type ImportedComment,
  type ImportedRevision,
  type ImportedStatus,
  type ImportReportLine,
  parseSourceDate,
  sourceLocale,
} from "../core.server.ts";
import { htmlToMarkdown } from "../html-markdown.server.ts";
import { type Attachment, autoParagraphs, convertContent, plainText } from "./content.server.ts";
import type { RawItem, WxrAuthor, WxrDocument } from "./wxr.server.ts";

// One WordPress post or page item as one language's version of a post: its status, dates,
// taxonomy and their old addresses, author, featured image, comments and revisions, with the
// report's notes. Pairing the versions into posts is reader.server.ts.

export interface WordPressReadOptions {
  /** The blog's language where a post has no Polylang/WPML language; else a guess per post. */
  locale?: Locale | undefined;
}

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
export interface Version {
  id: string;
  /** A WordPress page (`post_type` page): imported as a page (decision 035). */
  page: boolean;
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

/** Why a post or page item is not read into a post (null when it is). */
export function itemRefusal(
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

/** What an item's version needs from the rest of the export. */
export interface ItemContext {
  attachments: Map<string, Attachment>;
  /** Revisions by their post's id: an item's are taken out as it is read. */
  revisionsOf: Map<string, RawItem[]>;
  doc: Pick<WxrDocument, "authors" | "categoryParents">;
  opts: WordPressReadOptions;
  /** When the read began: the date of a comment without one. */
  now: string;
}

/**
 * A post or page item that is not refused (itemRefusal) as one language's version of a post.
 * It empties the item's texts and comments as it goes (big exports).
 */
export function itemVersion(
  it: RawItem,
  item: { type: string; id: string; title: string; label: string },
  ctx: ItemContext,
): Version {
  const { type, id, title, label } = item;
  const { attachments, revisionsOf, doc, opts, now } = ctx;
  const raw = it.status.trim();
  const notes: ImportReportLine[] = [];
  const converted = convertContent(it.content, { postId: id, attachments });
  // The raw text is not needed again: let it go while the rest is read (big exports).
  it.content = "";
  for (const s of converted.shortcodesKept)
    notes.push({ item: label, outcome: "note", reason: "wpShortcodeKept", detail: `[${s}]` });
  for (const k of converted.keptAsHtml) notes.push({ item: label, outcome: "note", reason: "wpKeptAsHtml", detail: k });
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
        title: plainText(r.title).slice(0, POST_LIMITS.titleMax) || title.slice(0, POST_LIMITS.titleMax) || slug || id,
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
    page: type === "page",
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
