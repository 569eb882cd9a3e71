import { AsyncLocalStorage } from "node:async_hooks";
import type { Locale } from "../lib/i18n/locale.ts";

const store = new AsyncLocalStorage<Locale>();

/** Runs `fn` with the language of the request being served (for mail and logs). */
export function withRequestLocale<T>(locale: Locale, fn: () => T): T {
  return store.run(locale, fn);
}

/** The language of the request being served, when there is one. */
export function requestLocale(): Locale | undefined {
  return store.getStore();
}
