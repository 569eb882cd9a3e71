/**
 * The "solana" strings, loaded with the /solana routes only and added to the page's i18next
 * instance there; `solanaTitle` gives route meta the page title without that instance.
 */

import type { i18n } from "i18next";
import en from "../../locales/en/solana.json";
import zh from "../../locales/zh/solana.json";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../lib/i18n/locale.ts";

const STRINGS: Record<Locale, typeof en> = { en, zh };

/** Adds the namespace to an instance once (both languages: the other is the fallback). */
export function addSolanaStrings(instance: i18n): void {
  for (const locale of ["en", "zh"] as const) {
    if (!instance.hasResourceBundle(locale, "solana")) instance.addResourceBundle(locale, "solana", STRINGS[locale]);
  }
}

type TitleKey = "title" | "close" | "batch" | "phantom" | "walletConnect";

/** A page title from the strings, in the locale the root loader chose. */
export function solanaTitle(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, key: TitleKey) {
  const data = matches.find((m) => m?.id === "root")?.loaderData;
  const raw = data && typeof data === "object" && "locale" in data ? data.locale : null;
  const strings = STRINGS[isLocale(raw) ? raw : DEFAULT_LOCALE];
  return { text: key === "title" ? strings.title : strings[key].title };
}
