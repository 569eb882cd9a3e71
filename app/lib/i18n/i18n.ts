import { createInstance, type i18n, type ResourceLanguage } from "i18next";
import enAuth from "../../../locales/en/auth.json";
import enBlog from "../../../locales/en/blog.json";
import enCommon from "../../../locales/en/common.json";
import enPost from "../../../locales/en/post.json";
import enSearch from "../../../locales/en/search.json";
import zhAuth from "../../../locales/zh/auth.json";
import zhBlog from "../../../locales/zh/blog.json";
import zhCommon from "../../../locales/zh/common.json";
import zhPost from "../../../locales/zh/post.json";
import zhSearch from "../../../locales/zh/search.json";
import type { Locale } from "./locale.ts";

export const resources = {
  en: {
    common: enCommon,
    blog: enBlog,
    auth: enAuth,
    post: enPost,
    search: enSearch,
  },
  zh: {
    common: zhCommon,
    blog: zhBlog,
    auth: zhAuth,
    post: zhPost,
    search: zhSearch,
  },
} as const;

/** The namespaces every page has: what readers see. */
export const NAMESPACES = ["common", "blog", "auth", "post", "search"] as const;

/** The admin area's and the editor's namespaces (`admin-strings.ts`). */
export const ADMIN_NAMESPACES = [
  "admin",
  "adminUsers",
  "adminConfig",
  "adminBrand",
  "adminContent",
  "adminLinks",
  "adminNewsletter",
  "adminPages",
  "adminTools",
  "media",
  "editor",
  "writing",
  "translations",
] as const;

/**
 * Namespaces only some pages need, added to the page's instance by those pages: the
 * admin strings load with the admin and editor routes, the wallet strings with the
 * /solana routes, so blog pages carry neither.
 */
export const LAZY_NAMESPACES = [...ADMIN_NAMESPACES, "solana"] as const;

/** Namespaces a route module brought along, by name: both languages (the other is the fallback). */
const registered = new Map<string, Record<Locale, ResourceLanguage>>();

/** Called by a strings module when it loads; every instance created afterwards has the namespace. */
export function registerStrings(namespace: string, strings: Record<Locale, ResourceLanguage>): void {
  registered.set(namespace, strings);
  generation += 1;
}

/** Bumped by every registration; an instance that has seen the current one has every namespace. */
let generation = 0;
const seenGeneration = new WeakMap<i18n, number>();

/** Adds the registered namespaces an existing instance (the page's) does not have yet. */
export function addRegisteredStrings(instance: i18n): void {
  // Called for every render and meta function: nothing to do unless something registered since.
  if (seenGeneration.get(instance) === generation) return;
  seenGeneration.set(instance, generation);
  // A key looked up before its namespace arrived was answered with the fallback.
  memos.get(instance)?.clear();
  for (const [namespace, strings] of registered) {
    for (const locale of ["en", "zh"] as const) {
      if (!instance.hasResourceBundle(locale, namespace))
        instance.addResourceBundle(locale, namespace, strings[locale]);
    }
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
  addRegisteredStrings(instance);
  return instance;
}

const shared = new Map<Locale, i18n>();

/** The remembered plain lookups of each shared instance (see `rememberPlainLookups`). */
const memos = new WeakMap<i18n, Map<string, string>>();
/** Plain lookups remembered per instance at most (keys come from the code, so far fewer in practice). */
const MEMO_MAX = 20_000;

/**
 * The part of a remembered lookup's name that its options make: their names and values in
 * the order given, or null when they cannot name an answer (not a plain object, or a value
 * that is not a string, a finite number, a boolean or undefined: null, an object, a function).
 * Such options give the same string every time for the same instance: interpolation does
 * not escape (`escapeValue: false`) and the plural and context rules read only the values.
 */
export function optionsId(options: unknown): string | null {
  if (options === null || typeof options !== "object" || Object.getPrototypeOf(options) !== Object.prototype)
    return null;
  let id = "\u0001";
  const record = options as Record<string, unknown>;
  for (const name in record) {
    const value = record[name];
    const type = typeof value;
    // A separator inside a value could make two sets of options read alike.
    if (type === "string" && !(value as string).includes("\u0001")) id += `${name}\u0002s${value as string}\u0001`;
    else if (type === "number" && Number.isFinite(value)) id += `${name}\u0002n${value as number}\u0001`;
    else if (type === "boolean") id += `${name}\u0002b${value as boolean}\u0001`;
    else if (value === undefined) id += `${name}\u0002u\u0001`;
    else return null;
  }
  return id;
}

/**
 * Makes the `t` functions of a shared instance remember their answers, per language,
 * namespace, key prefix, key and options: a plain lookup (one string key), and a lookup
 * with options whose values are strings, numbers or booleans (interpolation, count,
 * context: PostHeader's dates, reading time and views). i18next's `t` copies the instance
 * options and resolves the key on every call, and a page makes a few hundred of them; the
 * instance never changes language or strings except by `addRegisteredStrings`, which
 * forgets what was remembered. Other calls (selector keys, options holding objects) go
 * to i18next as before. Options name their values in the answer's key, so a view count
 * that changes adds an entry; at MEMO_MAX entries the memo starts again. `exists(key)` is
 * remembered the same way.
 */
function rememberPlainLookups(instance: i18n): void {
  const memo = new Map<string, string>();
  memos.set(instance, memo);
  const getFixedT = instance.getFixedT.bind(instance) as unknown as (...args: unknown[]) => unknown;
  const remembering = (...args: unknown[]): unknown => {
    const fixed = getFixedT(...args) as ((...callArgs: unknown[]) => unknown) & Record<string, unknown>;
    const [lng, ns, keyPrefix, fixedOpts] = args;
    // A key prefix given as a selector function has no stable name to remember it by.
    if (typeof keyPrefix === "function") return fixed;
    // react-i18next passes `{ scopeNs }` (it only matters for selector-function keys, which
    // are never remembered); part of the scope all the same.
    const scopeNs = (fixedOpts as { scopeNs?: unknown } | undefined)?.scopeNs;
    const scope = `${String(lng)}\u0000${String(ns)}\u0000${String(keyPrefix ?? "")}\u0000${String(scopeNs ?? "")}\u0000`;
    const t = (...callArgs: unknown[]): unknown => {
      const key = callArgs[0];
      if (typeof key !== "string" || callArgs.length > 2) return fixed(...callArgs);
      let id = scope + key;
      if (callArgs.length === 2) {
        const values = optionsId(callArgs[1]);
        if (values === null) return fixed(...callArgs);
        id += values;
      }
      const kept = memo.get(id);
      if (kept !== undefined) return kept;
      const value = fixed(...callArgs);
      if (typeof value === "string") {
        if (memo.size >= MEMO_MAX) memo.clear();
        memo.set(id, value);
      }
      return value;
    };
    return Object.assign(t, { lng: fixed.lng, lngs: fixed.lngs, ns: fixed.ns, keyPrefix: fixed.keyPrefix });
  };
  // Not instance.t: i18next's fixed t functions call it, so it must stay the plain one.
  instance.getFixedT = remembering as unknown as i18n["getFixedT"];
  // `exists` with a key alone (useMessage asks it for each message a form may show), in the
  // same memo, so a namespace registered later is seen: "1" or "" under a name no t call makes.
  const exists = instance.exists.bind(instance);
  const rememberingExists = (key: unknown, options?: unknown): boolean => {
    if (typeof key !== "string" || options !== undefined) return exists(key as string, options as undefined);
    const id = `\u0003exists\u0000${key}`;
    const kept = memo.get(id);
    if (kept !== undefined) return kept === "1";
    const value = exists(key);
    if (memo.size >= MEMO_MAX) memo.clear();
    memo.set(id, value ? "1" : "");
    return value;
  };
  instance.exists = rememberingExists as i18n["exists"];
}

/**
 * The instance of one locale, made once and shared: rendering only reads it (no
 * language change), so every server render and meta function need not build a new
 * one. Namespaces registered since it was made (a route module that loaded later,
 * such as the admin strings) are added on the way out, as a fresh instance would have them.
 */
export function i18nFor(locale: Locale): i18n {
  let instance = shared.get(locale);
  if (!instance) {
    instance = createI18n(locale);
    rememberPlainLookups(instance);
    shared.set(locale, instance);
  } else {
    addRegisteredStrings(instance);
  }
  return instance;
}
