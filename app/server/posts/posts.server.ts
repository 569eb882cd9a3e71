import { type SqlBool, sql } from "kysely";
import { type MediaImage, mediaIdFromUrl } from "../../lib/media.ts";
import { categoryOf } from "../../lib/terms.ts";
import type { DB } from "../db/db.server.ts";
import { type ReusableQuery, reusableQuery } from "../db/reusable-query.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { mediaImages } from "../media/media.server.ts";
import { termName } from "../taxonomy/taxonomy.server.ts";
import { type LifecycleActor, type NewPostInput, SYSTEM, withPostLifecycle } from "./lifecycle.server.ts";
import { cachedCount, cachedPostCount } from "./post-counts.server.ts";
import { wherePublic } from "./post-visibility.server.ts";

/** A category or tag as a list shows it: its name in the visitor's language. */
export interface TermRef {
  id: string;
  slug: string;
  name: string;
}

export interface PostSummary {
  id: string;
  slug: string;
  publishedAt: string | null;
  /** The language the title and summary are in. */
  locale: Locale;
  /** True when the visitor's language has no version and the other one is shown. */
  isFallback: boolean;
  title: string;
  summary: string;
  readingMinutes: number;
  category: TermRef | null;
  tags: TermRef[];
  /** Absolute http(s) URL or site-relative path; null = no cover. */
  coverImageUrl: string | null;
  coverAlt: string;
  /** Sizes and srcset when the cover is an uploaded image. */
  coverImage: MediaImage | null;
}

export interface PostPage {
  items: PostSummary[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/** A list keeps the position of every this many posts, so a deep page skips fewer than this many. */
export const PAGE_ANCHOR_EVERY = 100;

const otherLocale = (l: Locale): Locale => (l === "en" ? "zh" : "en");

export interface PostListFilter {
  /** Only posts in this category. */
  categoryId?: string;
  /** Only posts with this tag. */
  tagId?: string;
  /** Only posts by this author (the author page). */
  authorId?: string;
}

/** The key a list's kept total and anchors are filed under. */
const filterKey = (f: PostListFilter) =>
  `${f.categoryId ?? ""}|${f.tagId ?? ""}${f.authorId !== undefined ? `|a:${f.authorId}` : ""}`;

// The same WHERE for a list's page and its count. A tag's posts are found two ways: the
// page walks the newest posts and probes postTags for each (EXISTS) until it has enough;
// the count starts from the tag's own rows and looks each post up by id (IN, through
// posts_state_idx), which costs ~7× less than EXISTS at 10,000 posts.
function publishedPosts(db: DB, filter: PostListFilter, tagLookup: "exists" | "in") {
  const { categoryId, tagId, authorId } = filter;
  return db
    .selectFrom("posts as p")
    .where(wherePublic("p"))
    .$if(categoryId !== undefined, (qb) => qb.where("p.categoryId", "=", categoryId ?? ""))
    .$if(authorId !== undefined, (qb) => qb.where("p.authorId", "=", authorId ?? ""))
    .$if(tagId !== undefined, (qb) =>
      qb.where((eb) => {
        const tagged = eb
          .selectFrom("postTags as pt")
          .select("pt.postId")
          .where("pt.tagId", "=", tagId ?? "");
        return tagLookup === "exists" ? eb.exists(tagged.whereRef("pt.postId", "=", "p.id")) : eb("p.id", "in", tagged);
      }),
    );
}

/** The number of published posts in a list, counted now. */
async function countPublishedPosts(db: DB, filter: PostListFilter): Promise<number> {
  const row = await publishedPosts(db, filter, "in")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The number of published posts in a list, kept per instance (post-counts.server.ts). */
export function keptPublishedPostCount(db: DB, filter: PostListFilter = {}): Promise<number> {
  return cachedPostCount(db, filterKey(filter), () => countPublishedPosts(db, filter));
}

type ListPageValues = {
  locale: Locale;
  other: Locale;
  categoryId: string;
  tagId: string;
  authorId: string;
  fromPublishedAt: string;
  fromId: string;
  pageSize: number;
  offset: number;
};
type ListShape = { category: boolean; tag: boolean; author: boolean; from: boolean };

/**
 * A list page's rows (see `listPublishedPosts`), one reusable query per shape: which
 * filter it has and whether it starts from an anchor. A value the shape does not use is "".
 */
function buildListPage(db: DB, shape: ListShape, v: ListPageValues) {
  const pageIds = publishedPosts(
    db,
    {
      ...(shape.category ? { categoryId: v.categoryId } : {}),
      ...(shape.tag ? { tagId: v.tagId } : {}),
      ...(shape.author ? { authorId: v.authorId } : {}),
    },
    "exists",
  )
    .$if(shape.from, (qb) =>
      qb.where((eb) => eb(eb.refTuple("p.publishedAt", "p.id"), "<=", eb.tuple(v.fromPublishedAt, v.fromId))),
    )
    .select("p.id")
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id", "desc")
    .limit(v.pageSize)
    .offset(v.offset);

  return db
    .selectFrom("posts as p")
    .where("p.id", "in", pageIds)
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", v.locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", v.other))
    .leftJoin("categories as c", "c.id", "p.categoryId")
    .select([
      "p.id",
      "p.slug",
      "p.publishedAt",
      "p.coverImageUrl",
      "p.coverAlt",
      "t.title as title",
      "t.summary as summary",
      "t.readingMinutes as readingMinutes",
      "f.title as fallbackTitle",
      "f.summary as fallbackSummary",
      "f.readingMinutes as fallbackReadingMinutes",
      "c.id as categoryId",
      "c.slug as categorySlug",
      "c.nameEn as categoryNameEn",
      "c.nameZh as categoryNameZh",
    ])
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id", "desc");
}

const LIST_PAGE_VALUES = [
  "locale",
  "other",
  "categoryId",
  "tagId",
  "authorId",
  "fromPublishedAt",
  "fromId",
  "pageSize",
  "offset",
] as const;
const listPageQueries = new Map<string, ReusableQuery<ListPageValues, ListPageRow>>();
type ListPageRow = Awaited<ReturnType<ReturnType<typeof buildListPage>["execute"]>>[number];

/** The reusable list-page query of one shape (at most 16), made on first use. */
export function listPageQuery(shape: ListShape): ReusableQuery<ListPageValues, ListPageRow> {
  const key = `${+shape.category}${+shape.tag}${+shape.author}${+shape.from}`;
  let query = listPageQueries.get(key);
  if (!query) {
    query = reusableQuery(LIST_PAGE_VALUES, (db, v: ListPageValues) => buildListPage(db, shape, v), ["pageSize"]);
    listPageQueries.set(key, query);
  }
  return query;
}

/**
 * Published posts, newest first, in the visitor's language with the other language
 * as fallback, optionally of one category or tag: one query for the page (its ids
 * from the listing index, then both translations and the category joined for those
 * only), one for the count, and one for the tags
 * of the page's posts. With `cachedTotal` the count comes from this instance's
 * kept counts (every reader's page; see post-counts.server.ts).
 */
export async function listPublishedPosts(
  db: DB,
  opts: {
    locale: Locale;
    page: number;
    pageSize: number;
    /** Readers' pages: the total and the deep pages' anchors are kept per instance. */
    cachedTotal?: boolean;
    /** Tests only: how many posts apart the kept anchors are (PAGE_ANCHOR_EVERY). */
    anchorEvery?: number;
  } & PostListFilter,
): Promise<PostPage> {
  const { locale, pageSize, categoryId, tagId, authorId } = opts;
  const page = Math.max(1, Math.trunc(opts.page));
  const other = otherLocale(locale);

  const published = (tagLookup: "exists" | "in") => publishedPosts(db, { categoryId, tagId, authorId }, tagLookup);

  // The page's ids first, from the listing index alone (a deep page skips its OFFSET
  // over narrow index entries, not over joined rows), then the ten rows joined. Every
  // post has a translation (createPost, the editor and the import insist), so no
  // skipped entry is probed for one, and the page agrees with the count.
  //
  // A deep page starts from a kept anchor: the (publishedAt, id) of every
  // `anchorEvery`-th post of the list, found in one walk and kept like the total. Page
  // 900 then skips at most anchorEvery - 1 entries instead of 8,990.
  const offset = (page - 1) * pageSize;
  const anchorEvery = opts.anchorEvery ?? PAGE_ANCHOR_EVERY;
  const anchors =
    opts.cachedTotal && offset >= anchorEvery
      ? await cachedCount(db, `anchors:${anchorEvery}:${filterKey({ categoryId, tagId, authorId })}`, async () => {
          // A published post without a date sorts first on PostgreSQL and last on SQLite
          // and never compares below a key: with one, the list keeps plain OFFSETs.
          const undated = await published("in")
            .where("p.publishedAt", "is", null)
            .select("p.id")
            .limit(1)
            .executeTakeFirst();
          if (undated) return [];
          const walk = published("in")
            .select((eb) => [
              "p.publishedAt",
              "p.id",
              sql<number>`row_number() over (order by ${eb.ref("p.publishedAt")} desc, ${eb.ref("p.id")} desc)`.as(
                "position",
              ),
            ])
            .as("w");
          return db
            .selectFrom(walk)
            .select(["w.publishedAt", "w.id"])
            .where(sql<SqlBool>`(${sql.ref("w.position")} - 1) % ${anchorEvery} = 0`)
            .orderBy("w.position")
            .execute();
        })
      : [];
  const anchor = anchors[Math.floor(offset / anchorEvery)];
  const from = anchor?.publishedAt ? { publishedAt: anchor.publishedAt, id: anchor.id } : null;
  const rows = await listPageQuery({
    category: categoryId !== undefined,
    tag: tagId !== undefined,
    author: authorId !== undefined,
    from: from !== null,
  }).execute(db, {
    locale,
    other,
    categoryId: categoryId ?? "",
    tagId: tagId ?? "",
    authorId: authorId ?? "",
    fromPublishedAt: from?.publishedAt ?? "",
    fromId: from?.id ?? "",
    pageSize,
    offset: from ? offset % anchorEvery : offset,
  });

  const total = opts.cachedTotal
    ? await keptPublishedPostCount(db, { categoryId, tagId, authorId })
    : await countPublishedPosts(db, { categoryId, tagId, authorId });

  const [tagsByPost, covers] = await Promise.all([
    tagsOfPosts(
      db,
      rows.map((r) => r.id),
      locale,
    ),
    mediaImages(
      db,
      rows.flatMap((r) => mediaIdFromUrl(r.coverImageUrl) ?? []),
    ),
  ]);

  const items = rows.map((r): PostSummary => {
    const own = r.title !== null;
    return {
      id: r.id,
      slug: r.slug,
      publishedAt: r.publishedAt,
      locale: own ? locale : other,
      isFallback: !own,
      title: (own ? r.title : r.fallbackTitle) ?? "",
      summary: (own ? r.summary : r.fallbackSummary) ?? "",
      readingMinutes: Number((own ? r.readingMinutes : r.fallbackReadingMinutes) ?? 1),
      category: categoryOf(r, locale),
      tags: tagsByPost.get(r.id) ?? [],
      coverImageUrl: r.coverImageUrl,
      coverAlt: r.coverAlt,
      coverImage: covers.get(mediaIdFromUrl(r.coverImageUrl) ?? "") ?? null,
    };
  });

  return { items, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

/** The tags of these posts, by post id, named in `locale`: one query for all of them. */
export async function tagsOfPosts(db: DB, postIds: readonly string[], locale: Locale): Promise<Map<string, TermRef[]>> {
  const byPost = new Map<string, TermRef[]>();
  if (postIds.length === 0) return byPost;
  const rows = await db
    .selectFrom("postTags as pt")
    .innerJoin("tags as tg", "tg.id", "pt.tagId")
    .where("pt.postId", "in", [...new Set(postIds)])
    .select(["pt.postId", "tg.id", "tg.slug", "tg.nameEn", "tg.nameZh"])
    .orderBy("tg.slug")
    .execute();
  for (const r of rows) {
    const list = byPost.get(r.postId) ?? [];
    list.push({ id: r.id, slug: r.slug, name: termName(r, locale) });
    byPost.set(r.postId, list);
  }
  return byPost;
}

/**
 * Creates a post and its translations atomically, through the post lifecycle (which writes
 * its status and does what a new post's status calls for); returns the new id.
 */
export async function createPost(db: DB, input: NewPostInput, actor: LifecycleActor = SYSTEM): Promise<string> {
  return withPostLifecycle(db, actor, (life) => life.create(input));
}
