import { describe, expect, it } from "vitest";
import { contentPageMeta } from "./meta.ts";

const root = {
  id: "root",
  loaderData: { locale: "en", site: { name: "My blog" } },
  meta: [
    { title: "My blog" },
    { name: "description", content: "Site description" },
    { property: "og:title", content: "My blog" },
    { property: "og:type", content: "website" },
    { property: "og:image", content: "https://blog.example/social.jpg" },
    { tagName: "link", rel: "canonical", href: "https://blog.example/posts/detail/x" },
    { tagName: "link", rel: "alternate", hrefLang: "en", href: "https://blog.example/en/posts/detail/x" },
    { tagName: "link", rel: "alternate", hrefLang: "zh", href: "https://blog.example/zh/posts/detail/x" },
  ],
};

describe("contentPageMeta", () => {
  it("titles the page with the content and lets the page replace the root's descriptors", () => {
    const meta = contentPageMeta([root], "A post", [
      { property: "og:type", content: "article" },
      { tagName: "link", rel: "canonical", href: "https://blog.example/en/posts/detail/x" },
      { tagName: "link", rel: "alternate", hrefLang: "en", href: "https://blog.example/en/posts/detail/x" },
    ]);
    expect(meta[0]).toEqual({ title: "A post · My blog" });
    expect(meta).toContainEqual({ property: "og:title", content: "A post · My blog" });
    expect(meta.filter((d) => "property" in d && d.property === "og:type")).toEqual([
      { property: "og:type", content: "article" },
    ]);
    // The alternates are replaced as a set: no zh alternate survives from the root.
    const alternates = meta.filter((d) => "rel" in d && d.rel === "alternate");
    expect(alternates).toHaveLength(1);
    expect(meta.filter((d) => "rel" in d && d.rel === "canonical")).toHaveLength(1);
    // What the page does not replace is kept.
    expect(meta).toContainEqual({ name: "description", content: "Site description" });
    expect(meta).toContainEqual({ property: "og:image", content: "https://blog.example/social.jpg" });
  });
});
