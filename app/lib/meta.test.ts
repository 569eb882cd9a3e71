import { describe, expect, it } from "vitest";
import { pageMeta } from "./meta.ts";

const root = {
  id: "root",
  loaderData: { locale: "en", site: { name: "My blog" } },
  meta: [
    { title: "My blog" },
    { property: "og:title", content: "My blog" },
    { tagName: "link", rel: "canonical", href: "https://b.test/en/x" },
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: "My blog (RSS)",
      href: "https://b.test/en/rss.xml",
    },
  ],
};

describe("pageMeta", () => {
  it("titles the page from a translation key or from text, on top of the root's tags", () => {
    expect(pageMeta([root], "pages.aboutTitle")[0]).toEqual({ title: "About · My blog" });
    const meta = pageMeta([root], { text: "Recipes & more" });
    expect(meta.slice(0, 2)).toEqual([
      { title: "Recipes & more · My blog" },
      { property: "og:title", content: "Recipes & more · My blog" },
    ]);
    expect(pageMeta([root], null)[0]).toEqual({ title: "My blog" });
  });

  it("keeps the root's links, including the feed links that carry a title attribute", () => {
    const meta = pageMeta([root], { text: "Recipes" });
    expect(meta.filter((d) => "title" in d && !("tagName" in d))).toHaveLength(1);
    expect(meta).toContainEqual(root.meta[2]);
    expect(meta).toContainEqual(root.meta[3]);
  });
});
