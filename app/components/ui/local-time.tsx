import { useEffect, useState } from "react";
import { formatDateTime } from "../../lib/format.ts";
import type { Locale } from "../../lib/i18n/locale.ts";

/** The browser's time zone, null until hydrated (the server does not know it). */
export function useBrowserTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return zone;
}

/**
 * `formatDateTime` in the browser's zone once hydrated, in UTC before: for a time
 * inside a sentence (an interpolated message), where `LocalTime` cannot go.
 */
export function useDateTimeFormatter(locale: Locale): (iso: string) => string {
  const zone = useBrowserTimeZone();
  return (iso) => formatDateTime(iso, locale, zone ?? "UTC");
}

/**
 * A moment in the admin: date and time with the zone named. The server renders it
 * in UTC; after hydration it is rewritten in the viewer's zone, the UTC text kept
 * as a tooltip. `dateTime` carries the exact instant either way.
 */
export function LocalTime({ iso, locale }: { iso: string; locale: Locale }) {
  const zone = useBrowserTimeZone();
  const utc = formatDateTime(iso, locale);
  const local = zone && zone !== "UTC" ? formatDateTime(iso, locale, zone) : utc;
  return (
    <time dateTime={iso} title={local !== utc ? utc : undefined}>
      {local}
    </time>
  );
}
