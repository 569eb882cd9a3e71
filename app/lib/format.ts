import { HTML_LANG, type Locale } from "./i18n/locale.ts";

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();
/** Dates already formatted, by language and ISO text: a page shows the same few again and again. */
const formattedDates = new Map<string, string>();
/** Formatted dates kept at most (then the memo starts again). */
export const FORMATTED_DATES_MAX = 5_000;

/**
 * A calendar date in the reader's language. Formatted in UTC so the server's HTML
 * and the browser's hydration agree.
 */
export function formatDate(iso: string, locale: Locale): string {
  const key = `${locale}${iso}`;
  const kept = formattedDates.get(key);
  if (kept !== undefined) return kept;
  let fmt = dateFormats.get(locale);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat(HTML_LANG[locale], { dateStyle: "long", timeZone: "UTC" });
    dateFormats.set(locale, fmt);
  }
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? "" : fmt.format(date);
  if (formattedDates.size >= FORMATTED_DATES_MAX) formattedDates.clear();
  formattedDates.set(key, text);
  return text;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date and time with its zone named, in the reader's language: in UTC by default
 * (what the server renders, "Nov 22, 2026, 11:30 PM UTC"), or in the given zone
 * (`LocalTime` passes the browser's after hydration, "… 6:30 PM EST").
 * `dateStyle`/`timeStyle` cannot be combined with `timeZoneName`, hence the fields.
 */
export function formatDateTime(iso: string, locale: Locale, timeZone = "UTC"): string {
  const key = `${locale} ${timeZone}`;
  let fmt = dateTimeFormats.get(key);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat(HTML_LANG[locale], {
        year: "numeric",
        month: "short",
        day: "numeric",
        hour: "numeric",
        minute: "2-digit",
        timeZoneName: "short",
        timeZone,
      });
    } catch {
      return timeZone === "UTC" ? "" : formatDateTime(iso, locale); // An unknown zone: UTC.
    }
    dateTimeFormats.set(key, fmt);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : fmt.format(date);
}

const shortDateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A moment as a list shows it, short and without the zone (the column names it once):
 * "Nov 28, 14:05" / "11月28日 14:05", with the year only when it is not this year's.
 * In UTC by default; an unknown zone falls back to UTC.
 */
export function formatShortDateTime(iso: string, locale: Locale, timeZone = "UTC", now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const yearOf = (d: Date) => {
    try {
      return new Intl.DateTimeFormat("en", { year: "numeric", timeZone }).format(d);
    } catch {
      return "";
    }
  };
  const withYear = yearOf(date) !== yearOf(now);
  const key = `${locale} ${timeZone} ${withYear}`;
  let fmt = shortDateTimeFormats.get(key);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat(HTML_LANG[locale], {
        ...(withYear ? { year: "numeric" } : {}),
        month: "short",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZone,
      });
    } catch {
      return timeZone === "UTC" ? "" : formatShortDateTime(iso, locale, "UTC", now);
    }
    shortDateTimeFormats.set(key, fmt);
  }
  return fmt.format(date);
}
