import { createContext, useContext } from "react";
import { DEFAULT_LOCALE, type Locale } from "../lib/i18n/locale.ts";

const RequestLocaleContext = createContext<Locale | undefined>(undefined);

/** Provided by entry.server with the language decided for the request. */
export const RequestLocaleProvider = RequestLocaleContext.Provider;

/**
 * The request's language when the root loader's data is missing (an action that
 * failed before loaders ran): on the server from the request, in the browser from
 * the document the server rendered.
 */
export function useFallbackLocale(): Locale {
  const fromServer = useContext(RequestLocaleContext);
  if (fromServer) return fromServer;
  if (typeof document !== "undefined") return document.documentElement.lang === "en-US" ? "en" : "zh";
  return DEFAULT_LOCALE;
}
