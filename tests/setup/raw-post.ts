import type { DB } from "../../app/server/db/db.server.ts";
import { nowIso } from "../../app/server/db/db.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import type { NewPostInput } from "../../app/server/posts/lifecycle.server.ts";

/**
 * A post written straight into the tables, as another process (or a version before the post
 * lifecycle) would: no newsletter started, no audit entry, no index rows, and the kept counts
 * not told. For tests of what copes with such rows; everything else creates posts through
 * the lifecycle (createPost, withPostLifecycle).
 */
export async function insertRawPost(db: DB, input: NewPostInput): Promise<string> {
  const id = input.id ?? newId();
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
        categoryId: input.categoryId ?? null,
        coverImageId: null,
        coverImageUrl: input.coverImageUrl ?? null,
        coverAlt: input.coverAlt ?? "",
        featured: input.featured ? 1 : 0,
        newsletter: input.newsletter ? 1 : 0,
        federate: input.federate === false ? 0 : 1,
        seriesId: input.seriesId ?? null,
        seriesPosition: input.seriesId ? (input.seriesPosition ?? null) : null,
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
          tocJson: t.tocJson ?? "[]",
          readingMinutes: t.readingMinutes ?? 1,
          seoTitle: t.seoTitle ?? null,
          seoDescription: t.seoDescription ?? null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    if (input.tagIds && input.tagIds.length > 0)
      await trx
        .insertInto("postTags")
        .values([...new Set(input.tagIds)].map((tagId) => ({ postId: id, tagId })))
        .execute();
  });
  return id;
}
