import { describe, expect, it } from "vitest";
import { etagMatches, strongEtag } from "./feed.server.ts";

describe("strongEtag / etagMatches", () => {
  it("is the same for the same bytes and differs otherwise", () => {
    expect(strongEtag("<rss/>")).toBe(strongEtag("<rss/>"));
    expect(strongEtag("<rss/>")).not.toBe(strongEtag("<rss />"));
  });

  it("matches a list, a weak form and *", () => {
    const etag = strongEtag("x");
    expect(etagMatches(null, etag)).toBe(false);
    expect(etagMatches(`"other", ${etag}`, etag)).toBe(true);
    expect(etagMatches(`W/${etag}`, etag)).toBe(true);
    expect(etagMatches("*", etag)).toBe(true);
    expect(etagMatches('"other"', etag)).toBe(false);
  });
});
