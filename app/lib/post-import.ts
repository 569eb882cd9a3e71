// What the admin Import page's form and its action share.

/** A Ghost or WordPress blog's language, as the CLI's `--lang`: `auto` guesses per post. */
export const IMPORT_LANGS = ["auto", "en", "zh"] as const;
