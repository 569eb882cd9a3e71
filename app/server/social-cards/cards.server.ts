import type { Locale } from "../../lib/i18n/locale.ts";
import { mediaUrl } from "../../lib/media.ts";
import type { DB } from "../db/db.server.ts";

// A post's social card as pages name it. The cards are drawn by the card job
// (sync.server.ts), never while a reader waits; this module only reads what it left.
// Pages name a card by an address that never changes (/cards/{postId}/{locale}.jpg,
// routes/seo/social-card.ts), which answers with the latest drawing: a new drawing
// needs no page to be rendered again.

/** The file name of a card inside its folder in the store: "/media/{id}/card.jpg". */
export const CARD_FILE = "card.jpg";

export interface SocialCard {
  /** Site-relative address, served like an upload. */
  url: string;
  contentType: string;
  width: number;
  height: number;
}

/** The card of a post's version in `locale`, or null while there is none (yet). */
export async function findSocialCard(db: DB, postId: string, locale: Locale): Promise<SocialCard | null> {
  const row = await db
    .selectFrom("socialCards")
    .select(["id", "contentType", "width", "height"])
    .where("postId", "=", postId)
    .where("locale", "=", locale)
    .executeTakeFirst();
  if (!row) return null;
  return { url: mediaUrl(row.id, CARD_FILE), contentType: row.contentType, width: row.width, height: row.height };
}

/** What a page says about a post's card: its fixed address, type and size (the job draws them all alike). */
export function socialCardAddress(postId: string, locale: Locale): SocialCard {
  return { url: `/cards/${postId}/${locale}.jpg`, contentType: "image/jpeg", width: 1200, height: 630 };
}
