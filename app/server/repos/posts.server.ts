import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale, PostStatus } from "../db/schema.server.ts";
import { newId } from "../ids.server.ts";

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
}

export interface PostPage {
  items: PostSummary[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

const otherLocale = (l: Locale): Locale => (l === "en" ? "zh" : "en");

/**
 * Published posts, newest first, in the visitor's language with the other language
 * as fallback: one query for the page (both translations joined), one for the count.
 */
export async function listPublishedPosts(
  db: DB,
  opts: { locale: Locale; page: number; pageSize: number },
): Promise<PostPage> {
  const { locale, pageSize } = opts;
  const page = Math.max(1, Math.trunc(opts.page));
  const other = otherLocale(locale);

  const rows = await db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", other))
    .where("p.status", "=", "published")
    .where((eb) => eb.or([eb("t.postId", "is not", null), eb("f.postId", "is not", null)]))
    .select([
      "p.id",
      "p.slug",
      "p.publishedAt",
      "t.title as title",
      "t.summary as summary",
      "t.readingMinutes as readingMinutes",
      "f.title as fallbackTitle",
      "f.summary as fallbackSummary",
      "f.readingMinutes as fallbackReadingMinutes",
    ])
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();

  const countRow = await db
    .selectFrom("posts")
    .where("status", "=", "published")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(countRow.n);

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
    };
  });

  return { items, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)) };
}

export interface NewPostInput {
  slug: string;
  authorId: string | null;
  status: PostStatus;
  publishedAt: string | null;
  translations: Array<{
    locale: Locale;
    title: string;
    summary?: string;
    bodyMarkdown?: string;
    bodyHtml?: string;
  }>;
}

/** Creates a post and its translations atomically; returns the new id. */
export async function createPost(db: DB, input: NewPostInput): Promise<string> {
  if (input.translations.length === 0) throw new Error("a post needs at least one translation");
  const id = newId();
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("posts")
      .values({
        id,
        slug: input.slug,
        authorId: input.authorId,
        status: input.status,
        publishedAt: input.publishedAt,
        categoryId: null,
        coverImageId: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await trx
      .insertInto("postTranslations")
      .values(
        input.translations.map((t) => ({
          postId: id,
          locale: t.locale,
          title: t.title,
          summary: t.summary ?? "",
          bodyMarkdown: t.bodyMarkdown ?? "",
          bodyHtml: t.bodyHtml ?? "",
          seoTitle: null,
          seoDescription: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
  });
  return id;
}
