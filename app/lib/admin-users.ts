/** Sort keys the admin users list accepts; anything else falls back to the first. */
export const USER_SORTS = ["created", "email", "lastSignIn"] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** Orders of the subscribers list. */
export const SUBSCRIBER_SORTS = ["newest", "oldest", "email"] as const;
export type SubscriberSort = (typeof SUBSCRIBER_SORTS)[number];
export const isSubscriberSort = (value: string): value is SubscriberSort =>
  (SUBSCRIBER_SORTS as readonly string[]).includes(value);

/**
 * The filter of the admin subscribers list ("" = everyone): a status, or "bounced"
 * (suppressed after three permanent failures, whatever their status).
 */
export const SUBSCRIBER_FILTERS = ["pending", "confirmed", "unsubscribed", "bounced"] as const;
export type SubscriberFilter = (typeof SUBSCRIBER_FILTERS)[number];

export const isUserSort = (value: string): value is UserSort => (USER_SORTS as readonly string[]).includes(value);
export const isSubscriberFilter = (value: string): value is SubscriberFilter =>
  (SUBSCRIBER_FILTERS as readonly string[]).includes(value);

/** Most data rows one subscriber import may hold. */
export const IMPORT_MAX_ROWS = 50_000;

/** The language an admin picks for imported rows that name none: one, or both with the one read first. */
export const IMPORT_DEFAULT_LANGUAGES = ["en", "zh", "bothEn", "bothZh"] as const;
export type ImportDefaultLanguages = (typeof IMPORT_DEFAULT_LANGUAGES)[number];
export const isImportDefaultLanguages = (value: string): value is ImportDefaultLanguages =>
  (IMPORT_DEFAULT_LANGUAGES as readonly string[]).includes(value);

/** better-auth's provider id of e-mail + password accounts. */
export const PASSWORD_PROVIDER = "credential";
