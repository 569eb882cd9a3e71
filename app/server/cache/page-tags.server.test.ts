import { describe, expect, it } from "vitest";
import { editorChanges, postTag } from "./page-tags.server.ts";

describe("what an editor save changes for readers", () => {
  it("keeps the cache for a post readers never saw, drops every page otherwise", () => {
    expect(editorChanges("p1", { before: false, after: false })).toEqual([postTag("p1")]);
    expect(editorChanges("p1", { before: false, after: true })).toBe("all");
    expect(editorChanges("p1", { before: true, after: false })).toBe("all");
    expect(editorChanges("p1", { before: true, after: true })).toBe("all");
  });
});
