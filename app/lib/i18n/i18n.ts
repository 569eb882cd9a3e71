import { createInstance, type i18n } from "i18next";
import enAdmin from "../../../locales/en/admin.json";
import enAdminConfig from "../../../locales/en/adminConfig.json";
import enAdminContent from "../../../locales/en/adminContent.json";
import enAdminLinks from "../../../locales/en/adminLinks.json";
import enAdminUsers from "../../../locales/en/adminUsers.json";
import enAuth from "../../../locales/en/auth.json";
import enBlog from "../../../locales/en/blog.json";
import enCommon from "../../../locales/en/common.json";
import enEditor from "../../../locales/en/editor.json";
import enMedia from "../../../locales/en/media.json";
import enPost from "../../../locales/en/post.json";
import enSearch from "../../../locales/en/search.json";
import type enSolana from "../../../locales/en/solana.json";
import zhAdmin from "../../../locales/zh/admin.json";
import zhAdminConfig from "../../../locales/zh/adminConfig.json";
import zhAdminContent from "../../../locales/zh/adminContent.json";
import zhAdminLinks from "../../../locales/zh/adminLinks.json";
import zhAdminUsers from "../../../locales/zh/adminUsers.json";
import zhAuth from "../../../locales/zh/auth.json";
import zhBlog from "../../../locales/zh/blog.json";
import zhCommon from "../../../locales/zh/common.json";
import zhEditor from "../../../locales/zh/editor.json";
import zhMedia from "../../../locales/zh/media.json";
import zhPost from "../../../locales/zh/post.json";
import zhSearch from "../../../locales/zh/search.json";
import type { Locale } from "./locale.ts";

export const resources = {
  en: {
    common: enCommon,
    blog: enBlog,
    auth: enAuth,
    editor: enEditor,
    post: enPost,
    search: enSearch,
    admin: enAdmin,
    adminUsers: enAdminUsers,
    adminConfig: enAdminConfig,
    adminContent: enAdminContent,
    adminLinks: enAdminLinks,
    media: enMedia,
  },
  zh: {
    common: zhCommon,
    blog: zhBlog,
    auth: zhAuth,
    editor: zhEditor,
    post: zhPost,
    search: zhSearch,
    admin: zhAdmin,
    adminUsers: zhAdminUsers,
    adminConfig: zhAdminConfig,
    adminContent: zhAdminContent,
    adminLinks: zhAdminLinks,
    media: zhMedia,
  },
} as const;

export const NAMESPACES = [
  "common",
  "blog",
  "auth",
  "editor",
  "post",
  "search",
  "admin",
  "adminUsers",
  "adminConfig",
  "adminContent",
  "adminLinks",
  "media",
] as const;

/**
 * Namespaces only some pages need, added to the page's instance by those pages (the wallet
 * strings load with the /solana routes, not with every blog page).
 */
export const LAZY_NAMESPACES = ["solana"] as const;

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: (typeof resources)["en"] & { solana: typeof enSolana };
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

const shared = new Map<Locale, i18n>();

/**
 * The instance of one locale, made once and shared: rendering only reads it (no
 * language change), so every server render and meta function need not build a new
 * one. Namespaces added later (the wallet strings) stay added, which is what they want.
 */
export function i18nFor(locale: Locale): i18n {
  let instance = shared.get(locale);
  if (!instance) {
    instance = createI18n(locale);
    shared.set(locale, instance);
  }
  return instance;
}
