/**
 * The "solana" strings, loaded with the /solana routes only: importing this module
 * registers them (like the admin strings), and the layout adds them to the page's
 * i18next instance; `solanaTitle` gives route meta the page title without that instance.
 */

import en from "../../locales/en/solana.json";
import zh from "../../locales/zh/solana.json";
import { registerStrings } from "../lib/i18n/i18n.ts";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../lib/i18n/locale.ts";

const STRINGS: Record<Locale, typeof en> = { en, zh };

registerStrings("solana", STRINGS);

type TitleKey = "title" | "close" | "batch" | "phantom" | "walletConnect";

/** A page title from the strings, in the locale the root loader chose. */
export function solanaTitle(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>, key: TitleKey) {
  const data = matches.find((m) => m?.id === "root")?.loaderData;
  const raw = data && typeof data === "object" && "locale" in data ? data.locale : null;
  const strings = STRINGS[isLocale(raw) ? raw : DEFAULT_LOCALE];
  return { text: key === "title" ? strings.title : strings[key].title };
}
