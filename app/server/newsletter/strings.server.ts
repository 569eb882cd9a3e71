import en from "../../../locales/en/common.json" with { type: "json" };
import zh from "../../../locales/zh/common.json" with { type: "json" };
import type { Locale } from "../db/schema.server.ts";

// The newsletter's own words, read straight from the locale files: the mail worker's
// code also runs outside the bundled server (the benchmark, the CLI, browser-test
// helpers), where i18next's JSON imports without attributes do not load.

const MAIL = { en: en.newsletter.mail, zh: zh.newsletter.mail };

/** The mail's fixed texts in `locale`, with the site's name filled in. */
export function newsletterStrings(locale: Locale, site: string) {
  const words = MAIL[locale];
  return {
    readOnSite: words.readOnSite,
    footer: words.footer.replaceAll("{{site}}", site),
    unsubscribe: words.unsubscribe,
    preferences: words.preferences,
  };
}
