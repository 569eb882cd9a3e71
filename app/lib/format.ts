import { HTML_LANG, type Locale } from "./i18n/locale.ts";

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/**
 * A calendar date in the reader's language. Formatted in UTC so the server's HTML
 * and the browser's hydration agree.
 */
export function formatDate(iso: string, locale: Locale): string {
  let fmt = dateFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(HTML_LANG[locale], { dateStyle: "long", timeZone: "UTC" });
    dateFormats.set(locale, fmt);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : fmt.format(date);
}

const dateTimeFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A date and time (UTC, labelled) in the reader's language, e.g. for admin lists. */
export function formatDateTime(iso: string, locale: Locale): string {
  let fmt = dateTimeFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(HTML_LANG[locale], {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: "UTC",
    });
    dateTimeFormats.set(locale, fmt);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : `${fmt.format(date)} UTC`;
}
