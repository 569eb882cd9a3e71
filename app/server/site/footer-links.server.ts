import type { DB } from "../db/db.server.ts";
import { cachedCount } from "../posts/post-counts.server.ts";
import { FOOTER_LINKS, listEnabledLinks, type PublicLink } from "./links.server.ts";

/**
 * The first enabled friend links, read by the root loader on every page it renders:
 * the footer lists them (when the footer-links setting is on) and offers "Friend links"
 * whenever there is at least one. Kept like the footer's category counts
 * (post-counts.server.ts: 30 s at most, dropped at once by any admin write, which
 * calls `content.changed()`), so a page view costs no links query.
 */
export function cachedFooterLinks(db: DB, now: number = Date.now()): Promise<PublicLink[]> {
  return cachedCount(db, "footer-links", () => listEnabledLinks(db, FOOTER_LINKS), now);
}
