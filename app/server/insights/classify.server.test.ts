import { describe, expect, it } from "vitest";
import { parseRange } from "../../lib/insights.ts";
import {
  countryOf,
  feedReaderOf,
  ownHostsOf,
  pageKindOf,
  referrerOf,
  searchKeyOf,
  sourceOf,
  withoutSourceParams,
} from "./classify.server.ts";

const OWN = ownHostsOf("blog.test:3000", "https://www.blog.test");

describe("insights classification", () => {
  it("keeps a referrer's host only, names well-known sites and drops this site", () => {
    expect(referrerOf("https://www.google.com/search?q=secret", OWN)).toBe("Google");
    expect(referrerOf("https://google.co.uk/", OWN)).toBe("Google");
    expect(referrerOf("https://t.co/xyz", OWN)).toBe("X (Twitter)");
    expect(referrerOf("https://www.zhihu.com/question/1", OWN)).toBe("Zhihu");
    expect(referrerOf("https://www.Example.org/some/path?token=1", OWN)).toBe("example.org");
    expect(referrerOf("https://blog.test:3000/posts", OWN)).toBeNull();
    expect(referrerOf("https://blog.test/posts", OWN)).toBeNull();
    expect(referrerOf("android-app://com.example", OWN)).toBeNull();
    expect(referrerOf("not a url", OWN)).toBeNull();
    expect(referrerOf(null, OWN)).toBeNull();
  });

  it("reads only the sources our own links name", () => {
    expect(sourceOf("?utm_source=feed")).toBe("feed");
    expect(sourceOf("?page=2&ref=Newsletter")).toBe("newsletter");
    expect(sourceOf("?utm_source=fediverse&ref=feed")).toBe("fediverse");
    expect(sourceOf("?utm_source=spam-site.example")).toBeNull();
    expect(sourceOf("")).toBeNull();
  });

  it("takes the source parameters off a URL and keeps the rest", () => {
    expect(withoutSourceParams("/posts/detail/a?utm_source=feed")).toBe("/posts/detail/a");
    expect(withoutSourceParams("/search?q=x&utm_source=feed&utm_medium=rss&page=2")).toBe("/search?q=x&page=2");
    expect(withoutSourceParams("/search?q=ref&preference=1")).toBe("/search?q=ref&preference=1");
    expect(withoutSourceParams("/")).toBe("/");
  });

  it("accepts two-letter countries only", () => {
    expect(countryOf("de")).toBe("DE");
    expect(countryOf("XX")).toBeNull();
    expect(countryOf("T1")).toBeNull();
    expect(countryOf("Germany")).toBeNull();
    expect(countryOf(undefined)).toBeNull();
  });

  it("names page kinds from route ids, one kind per language and page variant", () => {
    expect(pageKindOf("post-detail-zh")).toBe("post");
    expect(pageKindOf("posts-page-en")).toBe("posts");
    expect(pageKindOf("home-zh")).toBe("home");
    expect(pageKindOf("category-page")).toBe("category");
    expect(pageKindOf(null)).toBe("other");
  });

  it("normalises searches and periods", () => {
    expect(searchKeyOf("  Hello   World ")).toBe("hello world");
    expect(parseRange(null)).toBe(30);
    expect(parseRange("365")).toBe(365);
    expect(parseRange("31")).toBeNull();
    expect(parseRange("7.0")).toBeNull();
  });

  it("names feed reader apps and reads the subscribers they report", () => {
    expect(feedReaderOf("Feedly/1.0 (+http://www.feedly.com/fetcher.html; 123 subscribers; feed-id=abc)")).toEqual({
      app: "Feedly",
      subscribers: 123,
    });
    expect(feedReaderOf("Inoreader/1.0 (+http://www.inoreader.com/feed-fetcher; 1 subscriber; )")).toEqual({
      app: "Inoreader",
      subscribers: 1,
    });
    expect(feedReaderOf("NewsBlur Feed Fetcher - 5 subscribers - https://www.newsblur.com/site/1/x")).toEqual({
      app: "NewsBlur",
      subscribers: 5,
    });
    expect(feedReaderOf("Feedbin feed-id:1234 - 42 subscribers")).toEqual({ app: "Feedbin", subscribers: 42 });
    expect(feedReaderOf("Miniflux/2.1.0 (+https://miniflux.app)")).toEqual({ app: "Miniflux", subscribers: null });
    expect(feedReaderOf("Mozilla/5.0 (compatible; Yeti/1.1; +https://naver.me/spd)")).toEqual({
      app: "Yeti",
      subscribers: null,
    });
    expect(feedReaderOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36")).toEqual({
      app: "Browser",
      subscribers: null,
    });
    expect(feedReaderOf("SomeReader 3.0 (Linux)")).toEqual({ app: "SomeReader", subscribers: null });
    expect(feedReaderOf("")).toBeNull();
    expect(feedReaderOf("  ")).toBeNull();
    // A name is at most 40 characters, whatever the header holds.
    expect(feedReaderOf(`${"x".repeat(500)}/1.0`)?.app.length).toBeLessThanOrEqual(40);
  });
});
