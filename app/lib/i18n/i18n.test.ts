import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { i18n } from "i18next";
import { describe, expect, it } from "vitest";
import {
  ADMIN_NAMESPACES,
  createI18n,
  i18nFor,
  LAZY_NAMESPACES,
  NAMESPACES,
  optionsId,
  registerStrings,
} from "./i18n.ts";

const localesDir = path.resolve(import.meta.dirname, "../../../locales");

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

const variables = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
const load = (locale: string, ns: string) =>
  flatten(JSON.parse(readFileSync(path.join(localesDir, locale, `${ns}.json`), "utf8")) as Tree);

describe("locale files", () => {
  it("have the same namespaces in both languages, all registered", () => {
    const en = readdirSync(path.join(localesDir, "en")).sort();
    const zh = readdirSync(path.join(localesDir, "zh")).sort();
    expect(zh).toEqual(en);
    expect(en.map((f) => f.replace(/\.json$/, ""))).toEqual([...NAMESPACES, ...LAZY_NAMESPACES].sort());
  });

  for (const ns of [...NAMESPACES, ...LAZY_NAMESPACES]) {
    it(`${ns}: same keys and the same {{variables}} in en and zh`, () => {
      const en = load("en", ns);
      const zh = load("zh", ns);
      expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, value] of en) {
        expect(variables(zh.get(key) ?? ""), `${ns}:${key}`).toEqual(variables(value));
        expect(value.trim(), `${ns}:${key} (en) is empty`).not.toBe("");
        expect((zh.get(key) ?? "").trim(), `${ns}:${key} (zh) is empty`).not.toBe("");
      }
    });
  }
});

describe("English around a name", () => {
  // "a Inkwell account" (issue 49): a name's first sound is unknown, so no English string puts
  // "a" or "an" right before one.
  it("never writes an article before a {{variable}}", () => {
    const wrong: string[] = [];
    for (const ns of [...NAMESPACES, ...LAZY_NAMESPACES]) {
      for (const [key, value] of load("en", ns)) if (/\ban? \{\{/i.test(value)) wrong.push(`${ns}:${key}: ${value}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe("the admin's words", () => {
  // Issue 46: messages for operators stay out of the owner's way. The admin says "set by the
  // server's configuration" and links its guide (/admin/docs), never a variable's name
  // (PUBLIC_URL, FEDERATION) or a command-line flag (--images).
  const OPERATOR_WORDS = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bFEDERATION\b|(?:^|[\s(（])--[a-z]/;
  it("name no environment variable and no command-line flag", () => {
    const found: string[] = [];
    for (const locale of ["en", "zh"]) {
      for (const ns of ADMIN_NAMESPACES) {
        for (const [key, value] of load(locale, ns)) {
          if (OPERATOR_WORDS.test(value)) found.push(`${locale}/${ns}:${key}: ${value}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe("createI18n", () => {
  it("translates with interpolation in each language", () => {
    expect(createI18n("en").t("errors.notFound", { path: "/x" })).toBe("Page not found: /x");
    expect(createI18n("zh").t("errors.notFound", { path: "/x" })).toBe("页面不存在：/x");
  });

  it("does not HTML-escape (React escapes when rendering)", () => {
    expect(createI18n("en").t("errors.notFound", { path: "/<b>" })).toBe("Page not found: /<b>");
  });
});

describe("strings on readers' pages", () => {
  // Blog, account and error pages have only NAMESPACES: a key from the admin strings
  // there shows as "Something went wrong" (a banned reader's sign-in message once did).
  const appDir = path.resolve(import.meta.dirname, "../..");
  const PUBLIC_CODE = [
    "root.tsx",
    "routes/auth",
    "routes/blog",
    "routes/pages",
    "routes/subscribe",
    "routes/links",
    "routes/search",
    "components/blog",
    "components/layout",
    "components/ui",
    "components/ads",
    "lib/schemas/auth.ts",
    "lib/schemas/comment.ts",
    "lib/schemas/contact.ts",
    "server/accounts",
    "server/comments/comments.server.ts",
    "server/newsletter/subscriptions.server.ts",
  ];
  const files = PUBLIC_CODE.flatMap((entry) => {
    const full = path.join(appDir, entry);
    if (/\.tsx?$/.test(entry)) return [full];
    return readdirSync(full, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .map((f) => path.join(full, f));
  });

  it("use keys from the namespaces every page has", () => {
    expect(files.length).toBeGreaterThan(20);
    const known = new Set<string>([...NAMESPACES, ...LAZY_NAMESPACES]);
    const misplaced: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(/["'`]([a-zA-Z]+):([a-zA-Z]\w*(?:\.\w+)+)["'`]/g)) {
        const ns = match[1] ?? "";
        if (known.has(ns) && (ADMIN_NAMESPACES as readonly string[]).includes(ns)) {
          misplaced.push(`${path.relative(appDir, file)}: ${match[0]}`);
        }
      }
    }
    expect(misplaced).toEqual([]);
  });
});

describe("i18nFor", () => {
  it("gives one shared instance per locale, each in its own language", () => {
    expect(i18nFor("en")).toBe(i18nFor("en"));
    expect(i18nFor("zh")).not.toBe(i18nFor("en"));
    expect(i18nFor("en").t("errors.notFound", { path: "/x" })).toBe("Page not found: /x");
    expect(i18nFor("zh").t("errors.notFound", { path: "/x" })).toBe("页面不存在：/x");
    expect(i18nFor("zh").language).toBe("zh");
  });

  it("has the namespaces a route module registered after the instance was made", () => {
    const before = i18nFor("en");
    registerStrings("lateTest", { en: { hello: "Hello late" }, zh: { hello: "迟到的你好" } });
    const after = i18nFor("en");
    expect(after).toBe(before);
    expect(after.hasResourceBundle("en", "lateTest")).toBe(true);
    expect(i18nFor("zh").hasResourceBundle("zh", "lateTest")).toBe(true);
  });

  // getFixedT's typed overloads do not cover every argument react-i18next passes.
  type LooseT = (...args: unknown[]) => unknown;
  const fixedT = (instance: i18n, ...args: unknown[]): LooseT =>
    (instance.getFixedT as unknown as (...a: unknown[]) => LooseT)(...args);

  it("answers plain lookups from memory exactly as i18next does, and options as before", () => {
    for (const locale of ["en", "zh"] as const) {
      const t = fixedT(i18nFor(locale), locale, "common", undefined, { scopeNs: ["common"] });
      const plain = fixedT(createI18n(locale), locale, "common");
      for (const key of ["siteName", "siteDescription", "errors.notFound", "no.such.key"]) {
        const first = t(key);
        expect(first).toBe(plain(key));
        expect(t(key)).toBe(first);
      }
      // With options (interpolation): remembered per value, each as i18next answers it.
      expect(t("errors.notFound", { path: "/a" })).toBe(plain("errors.notFound", { path: "/a" }));
      expect(t("errors.notFound", { path: "/b" })).toContain("/b");
      expect(t("errors.notFound", { path: "/a" })).toBe(plain("errors.notFound", { path: "/a" }));
      // Options the memo cannot name (an object, null) go to i18next every time.
      expect(t("errors.notFound", { path: "/c", extra: { a: 1 } })).toBe(
        plain("errors.notFound", { path: "/c", extra: { a: 1 } }),
      );
      const post = fixedT(i18nFor(locale), locale, "post");
      const freshPost = fixedT(createI18n(locale), locale, "post");
      // Plurals: the count is part of what is remembered.
      for (const count of [1, 2, 1, 7, 2]) {
        expect(post("readingTime", { count })).toBe(freshPost("readingTime", { count }));
        expect(post("views", { count })).toBe(freshPost("views", { count }));
      }
      expect(post("readingTime", { count: 1 })).not.toBe(post("readingTime", { count: 2 }));
      expect(post("publishedOn", { date: "A" })).toBe(freshPost("publishedOn", { date: "A" }));
      expect(post("publishedOn", { date: "B" })).toContain("B");
      expect(post("publishedOn", { date: "A" })).not.toContain("B");
    }
    // The key prefix is part of what is remembered.
    expect(fixedT(i18nFor("en"), "en", "common", "errors")("notFound")).toBe(
      fixedT(createI18n("en"), "en", "common", "errors")("notFound"),
    );
  });

  it("names options by their plain values only, and tells different values apart", () => {
    expect(optionsId({ count: 1 })).not.toBe(optionsId({ count: 2 }));
    expect(optionsId({ count: 1 })).not.toBe(optionsId({ count: "1" }));
    expect(optionsId({ date: "a", name: "b" })).not.toBe(optionsId({ date: "a\u0001name\u0002sb" }));
    expect(optionsId({ date: "a\u0001" })).toBeNull();
    expect(optionsId({ name: undefined })).not.toBe(optionsId({}));
    expect(optionsId({ name: null })).toBeNull();
    expect(optionsId({ replace: { a: 1 } })).toBeNull();
    expect(optionsId({ count: Number.NaN })).toBeNull();
    expect(optionsId("a default")).toBeNull();
    expect(optionsId(new Date())).toBeNull();
  });

  it("forgets what it remembered when a namespace is registered later", () => {
    const t = () => fixedT(i18nFor("en"), "en", "lateMemo")("hello");
    expect(t()).toBe("hello");
    registerStrings("lateMemo", { en: { hello: "Hello now" }, zh: { hello: "现在你好" } });
    expect(t()).toBe("Hello now");
  });

  it("answers exists() as i18next does, and again once a namespace is registered later", () => {
    for (const locale of ["en", "zh"] as const) {
      const shared = i18nFor(locale);
      const fresh = createI18n(locale);
      for (const key of ["siteName", "auth:errors.internalError", "auth:errors.nope", "nowhere:x", ""]) {
        expect(shared.exists(key), key).toBe(fresh.exists(key));
        expect(shared.exists(key), key).toBe(fresh.exists(key)); // remembered
      }
    }
    const known = () => i18nFor("zh").exists("lateExists:hello");
    expect(known()).toBe(false);
    registerStrings("lateExists", { en: { hello: "Hello" }, zh: { hello: "你好" } });
    expect(known()).toBe(true);
  });
});
