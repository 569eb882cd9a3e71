import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { DEFAULT_SETTINGS, getSiteSettings, type SiteSettings } from "../site/site-settings.server.ts";

// Every mail names the site the way the owner configured it (/admin/config), in the
// recipient's language: in its subject, its body and as the sender's display name.
// The templates take the name from here, never from the translation files.

/** The site's name for a reader of `locale` (the built-in one if the setting is blank). */
export function siteNameIn(settings: Pick<SiteSettings, "siteName">, locale: Locale): string {
  return settings.siteName[locale].trim() || DEFAULT_SETTINGS.siteName[locale];
}

/** The site's name in `locale`, read from the settings now. */
export async function mailSiteName(db: DB, locale: Locale): Promise<string> {
  return siteNameIn(await getSiteSettings(db), locale);
}

/** The address in MAIL_FROM: `Blog <a@b>` → `a@b`, `a@b` → `a@b`. */
export function mailboxOf(from: string): string {
  const angle = /<([^>]+)>/.exec(from);
  return (angle?.[1] ?? from).trim();
}

/**
 * The From of a mail: MAIL_FROM's address with the site's name as its display name.
 * A mail queued without one (before this existed) keeps MAIL_FROM as it is.
 * Given as name and address, so nodemailer quotes and encodes the name itself.
 */
export function fromHeader(
  mailFrom: string,
  fromName: string | null | undefined,
): string | { name: string; address: string } {
  const name = fromName?.replace(/[\r\n]+/g, " ").trim();
  return name ? { name, address: mailboxOf(mailFrom) } : mailFrom;
}

/** The same as one header string, `Name <box@host>`, for mail built as a template (mail/mime.server.ts). */
export function fromWithName(mailFrom: string, fromName: string | null | undefined): string {
  const from = fromHeader(mailFrom, fromName);
  return typeof from === "string" ? from : `${from.name.replace(/[<>]/g, "")} <${from.address}>`;
}
