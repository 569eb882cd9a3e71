import { createInstance, type i18n } from "i18next";
import enAuth from "../../../locales/en/auth.json";
import enBlog from "../../../locales/en/blog.json";
import enCommon from "../../../locales/en/common.json";
import zhAuth from "../../../locales/zh/auth.json";
import zhBlog from "../../../locales/zh/blog.json";
import zhCommon from "../../../locales/zh/common.json";
import type { Locale } from "./locale.ts";

export const resources = {
  en: { common: enCommon, blog: enBlog, auth: enAuth },
  zh: { common: zhCommon, blog: zhBlog, auth: zhAuth },
} as const;

export const NAMESPACES = ["common", "blog", "auth"] as const;

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: (typeof resources)["en"];
  }
}

/**
 * A fresh, synchronously initialised i18next instance for one locale. Strings of
 * the other language are the fallback when a key is missing.
 */
export function createI18n(locale: Locale): i18n {
  const instance = createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: locale === "en" ? "zh" : "en",
    supportedLngs: ["en", "zh"],
    ns: [...NAMESPACES],
    defaultNS: "common",
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
