import { useLocation } from "react-router";
import { type LocalePrefix, localePrefix } from "./locale.ts";

/** `/en` or `/zh` when the page was asked for with a prefix, else "": links on it keep the prefix. */
export function useLocalePrefix(): LocalePrefix {
  return localePrefix(useLocation().pathname);
}
