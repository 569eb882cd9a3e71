import type { DB } from "../../app/server/db/db.server.ts";

/** The post an import wrote for one source item, with its translations (by locale). */
export async function importedPost(db: DB, source: string, sourceId: string) {
  const map = await db
    .selectFrom("importSources")
    .select("targetId")
    .where("source", "=", source)
    .where("entity", "=", "post")
    .where("sourceId", "=", sourceId)
    .executeTakeFirstOrThrow();
  const post = await db.selectFrom("posts").selectAll().where("id", "=", map.targetId).executeTakeFirstOrThrow();
  const translations = await db
    .selectFrom("postTranslations")
    .selectAll()
    .where("postId", "=", post.id)
    .orderBy("locale")
    .execute();
  return { post, translations };
}

/** The page an import wrote for one source item (decision 035: pages are imported as pages). */
export async function importedPage(db: DB, source: string, sourceId: string) {
  const map = await db
    .selectFrom("importSources")
    .select("targetId")
    .where("source", "=", source)
    .where("entity", "=", "page")
    .where("sourceId", "=", sourceId)
    .executeTakeFirstOrThrow();
  return db.selectFrom("pages").selectAll().where("id", "=", map.targetId).executeTakeFirstOrThrow();
}
