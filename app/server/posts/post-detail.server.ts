import { SqliteAdapter, sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import type { CountValue } from "../db/query.server.ts";
import { reusableQuery } from "../db/reusable-query.server.ts";
import type { Locale, PostStatus } from "../db/schema.server.ts";
import { type ReactionCounts, reactionCountSql } from "../federation/inbound-store.server.ts";
import type { TocEntry } from "../render/post-outline.server.ts";
import { termName } from "../taxonomy/taxonomy.server.ts";
import { cachedCount } from "./post-counts.server.ts";
import { wherePublic } from "./post-visibility.server.ts";

const otherLocale = (l: Locale): Locale => (l === "en" ? "zh" : "en");

export interface PostTranslationView {
  locale: Locale;
  title: string;
  summary: string;
  bodyHtml: string;
  toc: TocEntry[];
  readingMinutes: number;
  seoTitle: string | null;
  seoDescription: string | null;
  /** Written before the other language's last change (issue 47, posts/translation-sync.server.ts). */
  outdated: boolean;
}

export interface TermLink {
  slug: string;
  name: string;
}

export interface PostDetail {
  id: string;
  slug: string;
  status: PostStatus;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Set = in the trash. */
  deletedAt: string | null;
  authorId: string | null;
  /** The name the author chose; null when unknown. Never anything from the e-mail address. */
  authorName: string | null;
  /** The author page's handle (/authors/{handle}); null when unknown. */
  authorHandle: string | null;
  /** The author's short bio (the author card at the end of the post); null when none. */
  authorBio: string | null;
  viewCount: number;
  coverImageUrl: string | null;
  coverAlt: string;
  category: TermLink | null;
  tags: TermLink[];
  /** The series it belongs to (the page loads the series box from it); null: none. */
  seriesId: string | null;
  /** Likes and boosts from the Fediverse, blocked actors and servers left out. */
  reactions: ReactionCounts;
  /** The version shown: the reader's language, else the other one. */
  translation: PostTranslationView;
  /** True when the reader's language has no version and the other one is shown. */
  isFallback: boolean;
  /** The languages this post is written in. */
  locales: Locale[];
}

export interface PostLink {
  id: string;
  title: string;
  locale: Locale;
  isFallback: boolean;
  publishedAt: string | null;
}

export { canView, isPublic, type Viewer } from "./post-visibility.server.ts";

/**
 * The name a user shows: the one they chose (registration, account page). Never
 * anything derived from their e-mail address; names from before display names were
 * asked for were written once by a migration (20261126T143100).
 */
export function displayName(name: string | null | undefined): string | null {
  return name?.trim() || null;
}

function parseToc(json: string | null): TocEntry[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.flatMap((e): TocEntry[] => {
      if (!e || typeof e !== "object") return [];
      const { depth, id, text } = e as Record<string, unknown>;
      if ((depth !== 2 && depth !== 3) || typeof id !== "string" || typeof text !== "string" || !id) return [];
      return [{ depth, id, text }];
    });
  } catch {
    return [];
  }
}

/**
 * A post's tags as one JSON text, `[[slug, nameEn, nameZh], …]` by slug ("[]" for none):
 * read with the post itself, so the page does not wait for a second round trip (issue 50).
 */
function tagsJson(db: DB) {
  return db.getExecutor().adapter instanceof SqliteAdapter
    ? sql<string>`(select json_group_array(json_array(g."slug", g."nameEn", g."nameZh") order by g."slug") from "postTags" pt join "tags" g on g."id" = pt."tagId" where pt."postId" = p."id")`
    : sql<string>`(select coalesce(json_agg(json_build_array(g."slug", g."nameEn", g."nameZh") order by g."slug"), '[]')::text from "postTags" pt join "tags" g on g."id" = pt."tagId" where pt."postId" = p."id")`;
}

/** The tags `tagsJson` gave, read back. */
function parseTags(json: string | null): { slug: string; nameEn: string; nameZh: string }[] {
  const value: unknown = JSON.parse(json ?? "[]");
  if (!Array.isArray(value)) return [];
  return value.flatMap((tag) =>
    Array.isArray(tag) && typeof tag[0] === "string"
      ? [{ slug: tag[0], nameEn: String(tag[1] ?? ""), nameZh: String(tag[2] ?? "") }]
      : [],
  );
}

/** The post, its author, category, tags and the one translation shown (see `findPostDetail`). */
const postDetailRow = reusableQuery(["id", "locale", "other"], (db, v: { id: string; locale: Locale; other: Locale }) =>
  db
    .selectFrom("posts as p")
    .leftJoin("users as u", "u.id", "p.authorId")
    .leftJoin("categories as c", "c.id", "p.categoryId")
    // Only the language shown is read (a body can be large): the reader's, else the other one.
    .leftJoin("postTranslations as t", (j) =>
      j
        .onRef("t.postId", "=", "p.id")
        .on(
          "t.locale",
          "=",
          sql<Locale>`(case when exists (select 1 from "postTranslations" x where x."postId" = ${v.id} and x."locale" = ${v.locale}) then ${v.locale} else ${v.other} end)`,
        ),
    )
    .where("p.id", "=", v.id)
    .select([
      "p.id",
      "p.slug",
      "p.status",
      "p.publishedAt",
      "p.createdAt",
      "p.updatedAt",
      "p.deletedAt",
      "p.authorId",
      "p.viewCount",
      "p.coverImageUrl",
      "p.coverAlt",
      "p.seriesId",
      "u.name as authorName",
      "u.handle as authorHandle",
      "u.bio as authorBio",
      "c.slug as categorySlug",
      "c.nameEn as categoryNameEn",
      "c.nameZh as categoryNameZh",
      "t.locale as tLocale",
      "t.title as tTitle",
      "t.summary as tSummary",
      "t.bodyHtml as tBodyHtml",
      "t.tocJson as tTocJson",
      "t.readingMinutes as tReadingMinutes",
      "t.seoTitle as tSeoTitle",
      "t.seoDescription as tSeoDescription",
      "t.outdatedSince as tOutdatedSince",
      sql<CountValue>`(select count(*) from "postTranslations" x where x."postId" = p."id")`.as("languageCount"),
      tagsJson(db).as("tagsJson"),
      reactionCountSql("p.id", "like").as("likes"),
      reactionCountSql("p.id", "announce").as("boosts"),
    ]),
);

/**
 * One post with everything its page shows, in `locale` with the other language
 * as fallback: one query for the post, its author, category, tags and the
 * one translation it shows (with how many it has). Undefined when the id is unknown. Visibility
 * is the caller's decision (`canView`).
 */
export async function findPostDetail(db: DB, id: string, locale: Locale): Promise<PostDetail | undefined> {
  const row = await postDetailRow.takeFirst(db, { id, locale, other: otherLocale(locale) });
  if (!row) return undefined;
  if (row.tLocale === null) return undefined; // no translation at all: nothing to show
  const own = row.tLocale === locale;
  const tags = parseTags(row.tagsJson);

  const translation: PostTranslationView = {
    locale: row.tLocale,
    title: row.tTitle ?? "",
    summary: row.tSummary ?? "",
    bodyHtml: row.tBodyHtml ?? "",
    toc: parseToc(row.tTocJson),
    readingMinutes: Number(row.tReadingMinutes ?? 1),
    seoTitle: row.tSeoTitle || null,
    seoDescription: row.tSeoDescription || null,
    outdated: row.tOutdatedSince !== null,
  };
  // Both languages, or only the one shown.
  const locales: Locale[] = Number(row.languageCount) > 1 ? ["en", "zh"] : [row.tLocale];

  return {
    id: row.id,
    slug: row.slug,
    status: row.status,
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    authorId: row.authorId,
    authorName: row.authorId ? displayName(row.authorName) : null,
    authorHandle: row.authorId ? row.authorHandle : null,
    authorBio: row.authorId && row.authorBio?.trim() ? row.authorBio.trim() : null,
    viewCount: Number(row.viewCount),
    coverImageUrl: row.coverImageUrl,
    coverAlt: row.coverAlt,
    category:
      row.categorySlug !== null
        ? {
            slug: row.categorySlug,
            name: termName({ nameEn: row.categoryNameEn ?? "", nameZh: row.categoryNameZh ?? "" }, locale),
          }
        : null,
    tags: tags.map((g) => ({ slug: g.slug, name: termName(g, locale) })),
    seriesId: row.seriesId,
    reactions: { likes: Number(row.likes ?? 0), boosts: Number(row.boosts ?? 0) },
    translation,
    isFallback: !own,
    locales,
  };
}

interface LinkRow {
  id: string;
  publishedAt: string | null;
  title: string | null;
  fallbackTitle: string | null;
}

function toLink(row: LinkRow, locale: Locale): PostLink {
  const own = row.title !== null;
  return {
    id: row.id,
    title: (own ? row.title : row.fallbackTitle) ?? "",
    locale: own ? locale : otherLocale(locale),
    isFallback: !own,
    publishedAt: row.publishedAt,
  };
}

/** Public posts with their title in `locale` (or, as `fallbackTitle`, in `other`). */
function publicPostLinks(db: DB, locale: Locale, other: Locale) {
  return db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", other))
    .where(wherePublic("p"))
    .where((eb) => eb.or([eb("t.postId", "is not", null), eb("f.postId", "is not", null)]));
}

type NeighbourValues = { id: string; publishedAt: string; locale: Locale; other: Locale };
const LINK_COLUMNS = ["p.id", "p.publishedAt", "t.title as title", "f.title as fallbackTitle"] as const;

/**
 * The public post just before (`previous`) or after (`next`) this one by publish date,
 * then id. The plain bound on the date lets the database seek the publish-date index;
 * "earlier, or as early with a smaller id" alone made SQLite walk every published post.
 */
function neighbour(db: DB, v: NeighbourValues, side: "previous" | "next") {
  const before = side === "previous";
  const direction = before ? "desc" : "asc";
  return publicPostLinks(db, v.locale, v.other)
    .where("p.publishedAt", before ? "<=" : ">=", v.publishedAt)
    .where((eb) =>
      eb.or([eb("p.publishedAt", before ? "<" : ">", v.publishedAt), eb("p.id", before ? "<" : ">", v.id)]),
    )
    .select(LINK_COLUMNS)
    .select(sql<"previous" | "next">`${sql.lit(side)}`.as("side"))
    .orderBy("p.publishedAt", direction)
    .orderBy("p.id", direction)
    .limit(1);
}

/** Both neighbours in one statement: a page's dozen small queries each cost a round. */
const neighbourRows = reusableQuery(["id", "publishedAt", "locale", "other"], (db, v: NeighbourValues) =>
  db
    .selectFrom(neighbour(db, v, "previous").as("before"))
    .selectAll()
    .unionAll(db.selectFrom(neighbour(db, v, "next").as("after")).selectAll()),
);

/** The published posts just before and after this one by publish date (ties by id, the same order as the lists). */
export async function findNeighbours(
  db: DB,
  post: { id: string; publishedAt: string },
  locale: Locale,
): Promise<{ previous: PostLink | null; next: PostLink | null }> {
  const values = { id: post.id, publishedAt: post.publishedAt, locale, other: otherLocale(locale) };
  const rows = await neighbourRows.execute(db, values);
  const link = (side: "previous" | "next") => {
    const row = rows.find((r) => r.side === side);
    return row ? toLink(row, locale) : null;
  };
  return { previous: link("previous"), next: link("next") };
}

/**
 * How many of the newest published posts sharing a tag are weighed for "related":
 * the cost of a post page stays flat however many posts carry its tags. At 100 the
 * weighing read ~1,700 rows on PostgreSQL per post page (tests/integration/query-budget);
 * at 30 it reads ~500, and the three shown are still the closest among recent posts.
 */
export const RELATED_CANDIDATES = 30;

/**
 * How far back, in published posts, the walk for candidates goes. Walking without a bound
 * read every post for a post whose only tag no other post carries (6 ms of SQLite at
 * 10,000 posts, against 0.2 ms for a post with common tags).
 */
export const RELATED_WALK = 200;

/**
 * When the walk gives fewer related posts than asked and there are older posts, the
 * candidates are read from the tags' rows instead, at most this many. Tags that more posts
 * carry, none of them recent, then give sharing posts in the index's order rather than the
 * newest: bounded work, and still posts sharing a tag.
 */
export const RELATED_TAG_ROWS = 1000;

/**
 * How many related posts a post page shows. The query's numbers are constants, not values:
 * SQLite compiles a statement with a `limit ?` anew on every run (db/sqlite-compiler.server.ts).
 */
export const RELATED_LIMIT = 3;

type RelatedValues = { postId: string; locale: Locale; other: Locale };

/** The tag ids of the post, as the `own` table of the related-post queries. */
const ownTags = (db: DB, postId: string) =>
  db.with("own", (qb) => qb.selectFrom("postTags").select("postTags.tagId").where("postTags.postId", "=", postId));

/**
 * The related posts among the candidates, ranked, with their titles: the candidates come
 * from walking posts newest first (`walk`) or from the tags' rows (`tags`).
 */
function relatedRows(from: "walk" | "tags") {
  return reusableQuery(["postId", "locale", "other"], (db, v: RelatedValues) =>
    ownTags(db, v.postId)
      .with("candidates", (qb) =>
        from === "walk"
          ? // The publish-date index back to the RELATED_WALK-th post, probing each post's
            // tags; it stops at the candidates' number.
            qb
              .selectFrom("posts as p")
              .select(["p.id", "p.publishedAt"])
              .where(wherePublic("p"))
              .where(
                "p.publishedAt",
                ">=",
                sql<string>`coalesce((${qb
                  .selectFrom("posts as w")
                  .select("w.publishedAt")
                  .where(wherePublic("w"))
                  .orderBy("w.publishedAt", "desc")
                  .limit(1)
                  .offset(RELATED_WALK - 1)}), '')`,
              )
              .where("p.id", "!=", v.postId)
              .where(({ exists, selectFrom }) =>
                exists(
                  selectFrom("postTags as pt")
                    .select("pt.postId")
                    .whereRef("pt.postId", "=", "p.id")
                    .where("pt.tagId", "in", selectFrom("own").select("own.tagId")),
                ),
              )
              .where(({ exists, selectFrom }) =>
                exists(selectFrom("postTranslations as tr").select("tr.postId").whereRef("tr.postId", "=", "p.id")),
              )
              .orderBy("p.publishedAt", "desc")
              .limit(RELATED_CANDIDATES)
          : // At most RELATED_TAG_ROWS of the tags' rows, then their posts, newest first.
            // A cross join keeps SQLite from walking every post by date to meet these.
            qb
              .selectFrom((rows) =>
                rows
                  .selectFrom("postTags as pt")
                  .select("pt.postId")
                  .where("pt.tagId", "in", (t) => t.selectFrom("own").select("own.tagId"))
                  .where("pt.postId", "!=", v.postId)
                  .limit(RELATED_TAG_ROWS)
                  .as("shared"),
              )
              .crossJoin("posts as p")
              .whereRef("p.id", "=", "shared.postId")
              .select(["p.id", "p.publishedAt"])
              .distinct()
              .where(wherePublic("p"))
              .where(({ exists, selectFrom }) =>
                exists(selectFrom("postTranslations as tr").select("tr.postId").whereRef("tr.postId", "=", "p.id")),
              )
              .orderBy("p.publishedAt", "desc")
              .limit(RELATED_CANDIDATES),
      )
      .with("ranked", (qb) =>
        qb
          .selectFrom("candidates as c")
          .select(["c.id", "c.publishedAt"])
          .select(({ selectFrom }) =>
            selectFrom("postTags as pt")
              .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
              .whereRef("pt.postId", "=", "c.id")
              .where("pt.tagId", "in", selectFrom("own").select("own.tagId"))
              .as("shared"),
          )
          .orderBy("shared", "desc")
          .orderBy("c.publishedAt", "desc")
          .orderBy("c.id", "desc")
          .limit(RELATED_LIMIT),
      )
      .selectFrom("ranked as r")
      .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "r.id").on("t.locale", "=", v.locale))
      .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "r.id").on("f.locale", "=", v.other))
      .select(["r.id", "r.publishedAt", "t.title as title", "f.title as fallbackTitle"])
      .orderBy("r.shared", "desc")
      .orderBy("r.publishedAt", "desc")
      .orderBy("r.id", "desc"),
  );
}

const relatedByWalk = relatedRows("walk");
const relatedByTags = relatedRows("tags");

/** A public post older than the walk reaches, if there is one. */
const pastWalk = reusableQuery([], (db) =>
  db
    .selectFrom("posts as w")
    .select("w.id")
    .where(wherePublic("w"))
    .orderBy("w.publishedAt", "desc")
    .limit(1)
    .offset(RELATED_WALK - 1),
);

/**
 * Whether some public post is older than the walk reaches: the same for every post page,
 * so kept like the list totals (post-counts.server.ts: dropped by any content change).
 */
function hasPostsPastWalk(db: DB): Promise<boolean> {
  return cachedCount(db, "related:past-walk", async () => (await pastWalk.takeFirst(db, {})) !== undefined);
}

/**
 * Up to RELATED_LIMIT published posts sharing the most tags with this one (newest first
 * among equals), chosen among the RELATED_CANDIDATES newest published posts that
 * share at least one tag with it among the RELATED_WALK newest. When those give fewer
 * than RELATED_LIMIT and there are older posts, the candidates are the newest posts read from
 * the tags' rows (RELATED_TAG_ROWS at most). The work is bounded whatever the number of
 * posts; the walk alone is one query, as before.
 */
export async function findRelatedPosts(db: DB, postId: string, locale: Locale): Promise<PostLink[]> {
  const values: RelatedValues = { postId, locale, other: otherLocale(locale) };
  let rows = await relatedByWalk.execute(db, values);
  if (rows.length < RELATED_LIMIT && (await hasPostsPastWalk(db))) {
    rows = await relatedByTags.execute(db, values);
  }
  return rows.map((r) => toLink(r, locale));
}

/** The page's reusable queries, for their tests. */
export const POST_PAGE_QUERIES = {
  postDetailRow,
  neighbourRows,
  relatedByWalk,
  relatedByTags,
  pastWalk,
};
