import { data } from "react-router";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { NotFoundHelp } from "../../lib/not-found.ts";
import type { DB } from "../db/db.server.ts";
import { listPublishedPosts } from "./posts.server.ts";

/** How many of the latest posts a 404 page offers. */
export const NOT_FOUND_RECENT_POSTS = 5;

/**
 * The 404 a reader's page throws: the root error boundary shows the spec's message, a
 * search form and the latest posts in the reader's language, which travel in the error's
 * data. A failing list never turns the 404 into a 500: the page then offers search only.
 */
export async function notFoundForReader(db: DB, locale: Locale): Promise<never> {
  let help: NotFoundHelp = { recentPosts: [] };
  try {
    const { items } = await listPublishedPosts(db, {
      locale,
      page: 1,
      pageSize: NOT_FOUND_RECENT_POSTS,
      cachedTotal: true,
    });
    help = {
      recentPosts: items.map((p) => ({ id: p.id, title: p.title, locale: p.locale, publishedAt: p.publishedAt })),
    };
  } catch {
    // Search alone still helps; the database being away is reported by its own checks.
  }
  throw data(help, { status: 404 });
}
