import { HAN } from "../../../lib/slug.ts";
import type { Locale } from "../../db/schema.server.ts";
import { type ImportedPost, type ImportReportLine, sourceLocale } from "../core.server.ts";
import { type Attachment, plainText } from "./content.server.ts";
import { itemRefusal, itemVersion, type Version, type WordPressReadOptions } from "./items.server.ts";
import type { RawItem, WxrDocument } from "./wxr.server.ts";

// The export's items as imported posts, in two passes over the items (so a streamed export is
// never held whole): the first (indexItem) keeps attachments, revisions and Polylang/WPML
// translation groups; the second (WxrReader) turns each post or page into a post as it closes,
// a pair of languages into one post.

/** What a first pass over an export learns, so the second can turn each item into a post as it closes. */
export interface WxrIndex {
  attachments: Map<string, Attachment>;
  /** Attachment items, for the command's summary. */
  attachmentItems: number;
  /** Revisions by their post's id (kept whole until that post is read: exports rarely carry them). */
  revisionsOf: Map<string, RawItem[]>;
  /** Polylang/WPML translation group → the versions in it that will be read, in export order. */
  groups: Map<string, { id: string; lang: Locale | null; locale: Locale }[]>;
  seen: Set<string>;
}

export const newIndex = (): WxrIndex => ({
  attachments: new Map(),
  attachmentItems: 0,
  revisionsOf: new Map(),
  groups: new Map(),
  seen: new Set(),
});

/** The first pass: attachments, revisions and the translation groups of the posts that will be read. */
export function indexItem(index: WxrIndex, it: RawItem, opts: WordPressReadOptions): void {
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
export class WxrReader {
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
      this.problems.push({
        item: label,
        outcome: refusal === "wpTrash" || refusal === "wpAutoDraft" ? "skipped" : "failed",
        reason: refusal,
      });
      return null;
    }
    const { index, doc, opts, now } = this;
    return itemVersion(
      it,
      { type, id, title, label },
      { attachments: index.attachments, revisionsOf: index.revisionsOf, doc, opts, now },
    );
  }
}

const translationOf = (v: Version) => ({
  locale: v.locale,
  title: v.title,
  summary: v.summary,
  bodyMarkdown: v.body,
  origin: `${v.page ? "page" : "post"} ${v.id}`,
});

function single(v: Version): ImportedPost {
  return {
    sourceId: v.id,
    ...(v.page ? { kind: "page" as const } : {}),
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
    // A page when both versions are (a post paired with a page is read as a post).
    ...(en.page && zh.page ? { kind: "page" as const } : {}),
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
