import { describe, expect, it } from "vitest";
import { editorChanges, listedTag, PUBLIC_POSTS_TAG, postTag } from "./page-tags.server.ts";

describe("what an editor save changes for readers", () => {
  it("keeps the cache for a post readers never saw, whether or not it moved", () => {
    expect(editorChanges("p1", { before: false, after: false }, false)).toEqual([postTag("p1")]);
    expect(editorChanges("p1", { before: false, after: false }, true)).toEqual([postTag("p1")]);
  });

  it("drops only the pages showing a live post edited in place, and those showing every post", () => {
    expect(editorChanges("p1", { before: true, after: true }, false)).toEqual([
      postTag("p1"),
      listedTag("p1"),
      PUBLIC_POSTS_TAG,
    ]);
  });

  it("drops every page when a post goes live, goes away or moves in the lists", () => {
    expect(editorChanges("p1", { before: false, after: true }, true)).toBe("all");
    expect(editorChanges("p1", { before: true, after: false }, false)).toBe("all");
    expect(editorChanges("p1", { before: true, after: true }, true)).toBe("all");
  });
});
