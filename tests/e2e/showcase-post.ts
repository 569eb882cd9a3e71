import type { DB } from "../../app/server/db/db.server.ts";
import { createPost } from "../../app/server/posts/posts.server.ts";
import { reindexPost } from "../../app/server/search/index.server.ts";
import { showcaseTranslations } from "../../scripts/demo/showcase.ts";

/** The style-guide post's fixed date: its meta line reads the same on every run. */
export const SHOWCASE_DATE = "2024-01-02T03:04:05.000Z";

/**
 * Publishes the style-guide post (long, with a table of contents, code, tables and a
 * picture) in both languages, dated SHOWCASE_DATE, and returns its id. The caller
 * removes it. `updatedAt` is set to the same date, so no "Updated on" line carries
 * the day the test ran.
 */
export async function createShowcasePost(db: DB, slugPrefix: string): Promise<string> {
  const translations = await showcaseTranslations();
  const id = await createPost(db, {
    slug: `${slugPrefix}-${Date.now().toString(36)}`,
    authorId: null,
    status: "published",
    publishedAt: SHOWCASE_DATE,
    translations,
  });
  await db.updateTable("posts").set({ updatedAt: SHOWCASE_DATE }).where("id", "=", id).execute();
  await reindexPost(db, id);
  return id;
}
