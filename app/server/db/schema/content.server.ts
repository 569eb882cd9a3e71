// Part of the database's one interface (`../schema.server.ts`): Posts and what hangs off them: translations, revisions, preview links, categories, series, tags, comments, media, the search index, redirects, pages and social cards.
import type { ColumnType } from "kysely";
import type { Locale, PostStatus, Timestamp } from "./common.server.ts";

/** A live post's social card in one language: the file "{id}/card.jpg" in the store (issue 48). */
export interface SocialCardsTable {
  id: string;
  postId: string;
  locale: Locale;
  /** What the card was drawn from, hashed: a different hash means the card is redrawn. */
  inputHash: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostsTable {
  id: string;
  slug: string;
  authorId: string | null;
  status: PostStatus;
  publishedAt: Timestamp | null;
  categoryId: string | null;
  coverImageId: string | null;
  /** Absolute http(s) URL or site-relative path; null = no cover. */
  coverImageUrl: ColumnType<string | null, string | null | undefined, string | null>;
  coverAlt: ColumnType<string, string | undefined, string>;
  /** Set = in the trash (hidden everywhere but the admin trash). */
  deletedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  featured: ColumnType<number, number | undefined, number>;
  /** 1: mail the post to subscribers when it first goes live (one send per post, ever). */
  newsletter: ColumnType<number, number | undefined, number>;
  /** 1: shared on the Fediverse (the editor's "Share on the Fediverse" box); 0: never federated. */
  federate: ColumnType<number, number | undefined, number>;
  /** The series the post belongs to (issue 23), and its part number there; null: none. */
  seriesId: ColumnType<string | null, string | null | undefined, string | null>;
  seriesPosition: ColumnType<number | null, number | null | undefined, number | null>;
  viewCount: ColumnType<number, number | undefined, number>;
  version: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostTranslationsTable {
  postId: string;
  locale: Locale;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
  tocJson: ColumnType<string, string | undefined, string>;
  readingMinutes: ColumnType<number, number | undefined, number>;
  seoTitle: string | null;
  seoDescription: string | null;
  /**
   * When the other language changed after this version was last brought in line with it
   * (issue 47, posts/translation-sync.server.ts); null: up to date, or the only language.
   */
  outdatedSince: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  /** JSON { title, summary, bodyMarkdown }: the other language as this version was last in line with it; null while up to date. */
  syncedSource: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** "saved": what the post held after a save; "pending": changes to a live post readers do not see yet. */
export type RevisionKind = "saved" | "pending";

/** One revision of a post (issue 23): both languages and the settings, as JSON where they are lists. */
export interface PostRevisionsTable {
  id: string;
  postId: string;
  authorId: string | null;
  kind: RevisionKind;
  status: PostStatus;
  slug: string;
  publishedAt: Timestamp | null;
  categoryId: string | null;
  /** JSON array of tag names. */
  tags: string;
  coverImageUrl: string | null;
  coverAlt: string;
  /** JSON object by locale: { title, summary, bodyMarkdown, seoTitle, seoDescription }. */
  translations: string;
  seriesId: ColumnType<string | null, string | null | undefined, string | null>;
  seriesPosition: ColumnType<number | null, number | null | undefined, number | null>;
  /** A pending revision the publisher applies at this time (a scheduled update); null: on Update only. */
  scheduledFor: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A private preview link of a post (issue 23); only the token's SHA-256 is stored. */
export interface PreviewLinksTable {
  id: string;
  postId: string;
  tokenHash: string;
  createdBy: string | null;
  expiresAt: Timestamp;
  revokedAt: Timestamp | null;
  createdAt: Timestamp;
}

export interface CategoriesTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  description: ColumnType<string, string | undefined, string>;
  sortOrder: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A named, ordered run of posts (issue 23); a post belongs to at most one. */
export interface SeriesTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  descriptionEn: ColumnType<string, string | undefined, string>;
  descriptionZh: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface TagsTable {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface PostTagsTable {
  postId: string;
  tagId: string;
}

export type CommentStatus = "pending" | "approved" | "hidden" | "spam";

export interface CommentsTable {
  id: string;
  postId: string;
  /** Null once the author's account is deleted (the comment stays, anonymised). */
  authorId: string | null;
  /** One level of replies: a reply's parent is always a top-level comment. */
  parentId: string | null;
  bodyMarkdown: string;
  bodyHtml: string;
  status: CommentStatus;
  /** A comment by someone without an account here (imported): the name, e-mail and address they gave. */
  guestName: ColumnType<string | null, string | null | undefined, string | null>;
  guestEmail: ColumnType<string | null, string | null | undefined, string | null>;
  guestUrl: ColumnType<string | null, string | null | undefined, string | null>;
  /** A reply from the Fediverse: the Note's id (unique), its author's URI and the note's page. */
  remoteNoteUri: ColumnType<string | null, string | null | undefined, string | null>;
  remoteActorUri: ColumnType<string | null, string | null | undefined, string | null>;
  remoteUrl: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** Friend links: the public /links page and, when configured, the footer. */
/** A page (issue 48): bilingual Markdown at `/{slug}`; never a post (decision 035). */
export interface PagesTable {
  id: string;
  slug: string;
  /** "about", "contact" or "privacy": a page the site links itself, at a fixed address; else null. */
  systemKey: ColumnType<string | null, string | null | undefined, string | null>;
  status: "draft" | "published";
  titleEn: string;
  titleZh: string;
  /** Markdown. */
  bodyEn: string;
  bodyZh: string;
  descriptionEn: ColumnType<string, string | undefined, string>;
  descriptionZh: ColumnType<string, string | undefined, string>;
  authorId: string | null;
  version: ColumnType<number, number | undefined, number>;
  publishedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** A saved state of a page: its fields as JSON (`PageContent`), coalesced like post revisions. */
export interface PageRevisionsTable {
  id: string;
  pageId: string;
  authorId: string | null;
  content: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/**
 * Old URLs answered before routing (docs/decisions/012-redirects.md). `fromPath` is unique and
 * normalised (lower case, no trailing slash), with its query exactly as written: "/old", "/?p=123".
 */
export interface RedirectsTable {
  id: string;
  fromPath: string;
  /** A site path ("/posts/detail/…", optional query and fragment), or an https:// URL when `external` is 1. */
  toPath: string;
  /** 301 or 302. */
  status: ColumnType<number, number | undefined, number>;
  external: ColumnType<number, number | undefined, number>;
  /** Written in batches by the HTTP step's counter. */
  hits: ColumnType<number, number | undefined, number>;
  lastHitAt: Timestamp | null;
  /** Who made it: "manual", "import:csv", "import:wordpress", "slug-change"… */
  source: ColumnType<string, string | undefined, string>;
  note: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** One stored file of a media row: a WebP variant or the main file. */
export interface MediaFile {
  file: string;
  contentType: string;
  width: number;
  height: number;
  size: number;
}

/** Uploaded images (spec section 3 object metadata); files under "<id>/" in the store. */
export interface MediaTable {
  id: string;
  /** The uploader's file name: shown and searched, never used as a path. */
  originalName: string;
  bucket: string;
  /** The main file's key, "<id>/image.jpg". */
  name: string;
  fullPath: string;
  size: number;
  md5Hash: string;
  generation: string;
  metageneration: ColumnType<number, number | undefined, number>;
  contentType: string;
  cacheControl: string;
  contentDisposition: ColumnType<string, string | undefined, string>;
  contentEncoding: ColumnType<string, string | undefined, string>;
  contentLanguage: ColumnType<string, string | undefined, string>;
  /** JSON object of strings. */
  customMetadata: ColumnType<string, string | undefined, string>;
  width: number;
  height: number;
  /** JSON MediaFile[]: WebP variants, narrowest first. */
  variants: ColumnType<string, string | undefined, string>;
  uploadedBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/**
 * The search index (app/server/search): one row per post and language, its text
 * already cut into tokens separated by spaces. SQLite also has an integer `id`
 * (the rowid of the FTS5 table "postSearchFts" over this one); PostgreSQL a
 * generated `searchVector` tsvector (and `headVector`, title and summary only, for
 * ranking), and `seq` (the order rows were written) with its recency `bucket`, which
 * its GIN indexes hold beside the vectors. None is written by the app.
 */
export interface PostSearchTable {
  postId: string;
  locale: Locale;
  title: string;
  summary: string;
  body: string;
  updatedAt: Timestamp;
}
