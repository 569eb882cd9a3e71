import type { Locale } from "./i18n/locale.ts";

/** Sort keys the admin post list accepts; anything else falls back to the first. */
export const ADMIN_POST_SORTS = ["updated", "published", "title", "views"] as const;
export type AdminPostSort = (typeof ADMIN_POST_SORTS)[number];

export const ADMIN_POST_STATUSES = ["draft", "published", "scheduled"] as const;

/** The moderation queue's tabs, the first being the default. */
export const COMMENT_TABS = ["pending", "approved", "hidden", "spam", "all"] as const;
export type CommentTab = (typeof COMMENT_TABS)[number];

/** What the moderation list can do to one comment or a checked set. */
/** Orders of the moderation queue. */
export const COMMENT_SORTS = ["newest", "oldest"] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];

export const COMMENT_ACTIONS = ["approve", "hide", "spam", "delete"] as const;
export type CommentAction = (typeof COMMENT_ACTIONS)[number];

/** The status each non-delete action gives a comment. */
export const COMMENT_ACTION_STATUS = { approve: "approved", hide: "hidden", spam: "spam" } as const;

export function oneOf<T extends string>(list: readonly T[], value: unknown): T | null {
  return typeof value === "string" && (list as readonly string[]).includes(value) ? (value as T) : null;
}

/** A title in the reader's language, else the other one. */
export function pickTitle(en: string | null, zh: string | null, locale: Locale): string {
  return (locale === "en" ? en || zh : zh || en) ?? "";
}
