// Part of the database's one interface (`../schema.server.ts`): The column types every part of the schema shares.

export type Locale = "en" | "zh";

export type PostStatus = "draft" | "published" | "scheduled";

/** Stored as text; always written with `nowIso()`. */
export type Timestamp = string;
