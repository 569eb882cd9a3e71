import { readCookie } from "../cookies.ts";

export const LOCALES = ["en", "zh"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "zh";
export const LOCALE_COOKIE = "locale";
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/** The BCP 47 tag for `<html lang>`: only ever one of these two. */
export const HTML_LANG: Record<Locale, "en-US" | "zh-CN"> = { en: "en-US", zh: "zh-CN" };

export function isLocale(value: unknown): value is Locale {
  return value === "en" || value === "zh";
}

/** `/en/…` or `/zh/…` (or exactly `/en`, `/zh`) gives that locale. */
export function localeFromPath(pathname: string): Locale | null {
  // `/zh.data` is how the client router fetches the data of `/zh` (a revalidation
  // after a fetcher's action, a client-side navigation).
  const m = /^\/(en|zh)(?:\/|\.data$|$)/.exec(pathname);
  return m ? (m[1] as Locale) : null;
}

export type LocalePrefix = "" | "/en" | "/zh";

/** "/en" or "/zh" when the path carries that prefix (also `/zh.data`), else "": links keep it. */
export function localePrefix(pathname: string): LocalePrefix {
  const locale = localeFromPath(pathname);
  return locale ? `/${locale}` : "";
}

/** The path without its language prefix: "/en/posts" → "/posts", "/zh" → "/". */
export function withoutLocalePrefix(pathname: string): string {
  const prefix = localePrefix(pathname);
  return prefix ? pathname.slice(prefix.length) || "/" : pathname;
}

/** The Set-Cookie value that remembers a reader's language (365 days, every path). */
export function localeCookieHeader(locale: Locale, secure: boolean): string {
  return `${LOCALE_COOKIE}=${locale}; Max-Age=${LOCALE_COOKIE_MAX_AGE}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Reads the `locale` cookie; anything but exactly `en` or `zh` is ignored. */
export function localeFromCookie(cookieHeader: string | null | undefined): Locale | null {
  const value = readCookie(cookieHeader, LOCALE_COOKIE);
  return isLocale(value) ? value : null;
}

function isIPv4(host: string): boolean {
  const parts = host.split(".");
  return parts.length === 4 && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

function isLanIPv4(host: string): boolean {
  if (!isIPv4(host)) return false;
  const [a, b] = host.split(".").map(Number) as [number, number];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

/**
 * The host rule (spec §9): `en.` → en; `zh.`/`cn.` → zh; localhost and loopback or
 * public IP addresses → en; LAN addresses and `.local` names → zh. Other hosts say
 * nothing, and the decision moves on to Accept-Language (docs/conventions.md, "Words the
 * product uses").
 */
export function localeFromHost(hostHeader: string | null | undefined): Locale | null {
  if (!hostHeader || hostHeader.length > 255) return null;
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    host = end > 0 ? host.slice(1, end) : host;
    if (host.startsWith("fe80:") || host.startsWith("fc") || host.startsWith("fd")) return "zh";
    return "en";
  }
  host = host.replace(/:\d+$/, "");
  if (host.startsWith("en.")) return "en";
  if (host.startsWith("zh.") || host.startsWith("cn.")) return "zh";
  if (host === "localhost" || host.endsWith(".localhost")) return "en";
  if (isLanIPv4(host) || host.endsWith(".local") || host.endsWith(".lan")) return "zh";
  if (isIPv4(host)) return "en";
  return null;
}

/** The best of en/zh by `Accept-Language` quality values; null when neither appears. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | null {
  if (!header || header.length > 1024) return null;
  let best: { locale: Locale; q: number } | null = null;
  for (const item of header.split(",").slice(0, 32)) {
    const [tagPart, ...params] = item.trim().split(";");
    const tag = tagPart?.trim().toLowerCase() ?? "";
    const primary = tag.split("-")[0];
    if (!isLocale(primary)) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q=([01](?:\.\d{1,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > 0 && (!best || q > best.q)) best = { locale: primary, q };
  }
  return best?.locale ?? null;
}

export interface LocaleInputs {
  pathname: string;
  cookie?: string | null;
  host?: string | null;
  acceptLanguage?: string | null;
}

/** URL prefix → cookie → host rule → Accept-Language → the site default (zh). */
export function resolveLocale(inputs: LocaleInputs): Locale {
  return (
    localeFromPath(inputs.pathname) ??
    localeFromCookie(inputs.cookie) ??
    localeFromHost(inputs.host) ??
    localeFromAcceptLanguage(inputs.acceptLanguage) ??
    DEFAULT_LOCALE
  );
}

export function localeFromRequest(request: Request): Locale {
  const url = new URL(request.url);
  return resolveLocale({
    pathname: url.pathname,
    cookie: request.headers.get("cookie"),
    host: request.headers.get("host") ?? url.host,
    acceptLanguage: request.headers.get("accept-language"),
  });
}
