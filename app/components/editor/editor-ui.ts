import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";

// What the post editor's parts share: the form's id (the conflict view's button
// submits it from outside), button and link styles, and how times are written.

export const FORM_ID = "post-editor";

export const LINK = "text-blue-700 underline dark:text-blue-400";

export const BUTTON_SECONDARY =
  "rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-blue-600 dark:border-zinc-700 dark:hover:bg-zinc-800";

/** Date and time in the reader's language: the browser's zone, or UTC (same on server and browser). */
export function dateTimeFormatter(locale: Locale, utc: boolean) {
  return (ms: number | string) => {
    const text = new Intl.DateTimeFormat(HTML_LANG[locale], {
      dateStyle: "medium",
      timeStyle: "short",
      ...(utc ? { timeZone: "UTC" } : {}),
    }).format(new Date(ms));
    // dateStyle cannot be combined with timeZoneName: name the zone by hand.
    return utc ? `${text} UTC` : text;
  };
}

/**
 * "12:04" for a time today, else the date and time: the bar's "Saved …". UTC until the page
 * runs in the browser (the server does not know the author's zone).
 */
export function savedTimeFormatter(locale: Locale, utc: boolean) {
  return (ms: number | string) => {
    const at = new Date(ms);
    const zone = utc ? { timeZone: "UTC" } : {};
    const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { dateStyle: "short", ...zone }).format(d);
    const today = day(at) === day(new Date());
    const text = new Intl.DateTimeFormat(HTML_LANG[locale], {
      ...(today ? {} : { dateStyle: "medium" }),
      timeStyle: "short",
      ...zone,
    }).format(at);
    return utc ? `${text} UTC` : text;
  };
}
