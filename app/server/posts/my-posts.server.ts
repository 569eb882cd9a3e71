import type { DB } from "../db/db.server.ts";
import type { CountValue } from "../db/query.server.ts";
import type { Locale, PostStatus } from "../db/schema.server.ts";

// "My posts": the list an author works from (routes/posts/my-posts.tsx).

export interface MyPostItem {
  id: string;
  slug: string;
  status: PostStatus;
  title: string;
  /** The language of `title`. */
  titleLocale: Locale;
  /** True when the reader's language has no version and the other one is shown. */
  isFallback: boolean;
  publishedAt: string | null;
  updatedAt: string;
}

export interface MyPostPage {
  items: MyPostItem[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
  /** Posts per status (and all), for the filter. */
  counts: Record<PostStatus | "all", number>;
}

/**
 * An author's posts (every status, not the trashed), most recently updated first,
 * optionally of one status, titled in `locale` with the other language as fallback.
 */
export async function listMyPosts(
  db: DB,
  opts: { authorId: string; locale: Locale; status?: PostStatus | null; page: number; pageSize: number },
): Promise<MyPostPage> {
  const { authorId, locale, pageSize } = opts;
  const page = Math.max(1, Math.trunc(opts.page));
  const other: Locale = locale === "en" ? "zh" : "en";
  let query = db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", other))
    .where("p.authorId", "=", authorId)
    .where("p.deletedAt", "is", null);
  if (opts.status) query = query.where("p.status", "=", opts.status);
  const rows = await query
    .select(["p.id", "p.slug", "p.status", "p.publishedAt", "p.updatedAt", "t.title as title", "f.title as other"])
    .orderBy("p.updatedAt", "desc")
    .orderBy("p.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();

  const countRows = await db
    .selectFrom("posts")
    .where("authorId", "=", authorId)
    .where("deletedAt", "is", null)
    .groupBy("status")
    .select(["status", (eb) => eb.fn.countAll<CountValue>().as("n")])
    .execute();
  const counts: MyPostPage["counts"] = { all: 0, draft: 0, published: 0, scheduled: 0 };
  for (const row of countRows) {
    counts[row.status] = Number(row.n);
    counts.all += Number(row.n);
  }
  const total = opts.status ? counts[opts.status] : counts.all;

  const items = rows.map((r): MyPostItem => {
    const own = r.title !== null;
    return {
      id: r.id,
      slug: r.slug,
      status: r.status,
      title: (own ? r.title : r.other) ?? "",
      titleLocale: own ? locale : other,
      isFallback: !own,
      publishedAt: r.publishedAt,
      updatedAt: r.updatedAt,
    };
  });
  return { items, total, page, pageSize, pageCount: Math.max(1, Math.ceil(total / pageSize)), counts };
}
