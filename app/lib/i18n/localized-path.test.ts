import { describe, expect, it } from "vitest";
import routes from "../../routes.ts";
import { LOCALIZED_SECTIONS, localizeHtmlLinks, localizePath } from "./localized-path.ts";

interface ConfigEntry {
  path?: string;
  children?: ConfigEntry[];
}

/** The first segment of every top-level route path, split by whether it has a /zh/… form. */
function sectionsOfRouteTable(): { localized: Set<string>; plain: Set<string> } {
  const paths = (routes as ConfigEntry[]).map((r) => r.path ?? "");
  const localized = new Set<string>();
  const plain = new Set<string>();
  for (const p of paths) {
    if (p === "zh") localized.add("");
    else if (p.startsWith("zh/")) localized.add(p.slice(3).split("/")[0] ?? "");
  }
  for (const p of paths) {
    if (p === "en" || p === "zh" || p.startsWith("en/") || p.startsWith("zh/")) continue;
    const section = p.split("/")[0] ?? "";
    if (!localized.has(section)) plain.add(section);
  }
  // The prefixed admin only redirects to /admin: links there keep /admin.
  localized.delete("admin");
  return { localized, plain };
}

describe("localizePath", () => {
  it("knows exactly the sections the route table gives language forms", () => {
    const { localized, plain } = sectionsOfRouteTable();
    expect([...LOCALIZED_SECTIONS].sort()).toEqual([...localized].sort());
    for (const section of plain) expect(LOCALIZED_SECTIONS.has(section), section).toBe(false);
    // A one-segment path is an owner's page unless the table answers it without language forms.
    for (const section of plain) {
      if (section !== "*") expect(localizePath(`/${section}`, "/zh"), section).toBe(`/${section}`);
    }
  });

  it("prefixes an owner's page, but not a file at the top level", () => {
    expect(localizePath("/english", "/zh")).toBe("/zh/english");
    expect(localizePath("/now?x=1", "/en")).toBe("/en/now?x=1");
    expect(localizePath("/favicon.svg", "/zh")).toBe("/favicon.svg");
    expect(localizePath("/social.jpg", "/zh")).toBe("/social.jpg");
  });

  it("prefixes the pages that have language forms", () => {
    expect(localizePath("/", "/zh")).toBe("/zh");
    expect(localizePath("/?x=1", "/zh")).toBe("/zh?x=1");
    expect(localizePath("/about", "/zh")).toBe("/zh/about");
    expect(localizePath("/posts/page/2", "/en")).toBe("/en/posts/page/2");
    expect(localizePath("/categories/css#top", "/zh")).toBe("/zh/categories/css#top");
    expect(localizePath("/login?redirectTo=%2Fzh%2Fabout", "/zh")).toBe("/zh/login?redirectTo=%2Fzh%2Fabout");
    expect(localizePath("/Login", "/zh")).toBe("/zh/Login");
  });

  it("leaves everything else alone", () => {
    expect(localizePath("/about", "")).toBe("/about");
    expect(localizePath("/zh/about", "/zh")).toBe("/zh/about");
    expect(localizePath("/en/posts/detail/x", "/zh")).toBe("/en/posts/detail/x");
    expect(localizePath("/en", "/zh")).toBe("/en");
    for (const path of [
      "/admin",
      "/admin/config",
      "/logout",
      "/locale",
      "/ads/1/click",
      "/api/files/x",
      "/media/a.webp",
    ]) {
      expect(localizePath(path, "/zh")).toBe(path);
    }
    expect(localizePath("//evil.example/about", "/zh")).toBe("//evil.example/about");
    expect(localizePath("https://example.com/about", "/zh")).toBe("https://example.com/about");
    expect(localizePath("about", "/zh")).toBe("about");
    expect(localizePath("#main", "/zh")).toBe("#main");
  });
});

describe("localizeHtmlLinks", () => {
  it("writes the page's language into the links to the site's pages", () => {
    const html =
      '<p><a href="/about">a</a> <a href="https://x.test/about" rel="noopener">b</a> <a id="x" href="/tags/css?a=1&amp;b=2">c</a>' +
      ' <a href="/media/x.webp">d</a> <a href="#fn-1">e</a> <img src="/about"></p>';
    expect(localizeHtmlLinks(html, "/zh")).toBe(
      '<p><a href="/zh/about">a</a> <a href="https://x.test/about" rel="noopener">b</a> <a id="x" href="/zh/tags/css?a=1&amp;b=2">c</a>' +
        ' <a href="/media/x.webp">d</a> <a href="#fn-1">e</a> <img src="/about"></p>',
    );
    expect(localizeHtmlLinks(html, "")).toBe(html);
  });
});
