import { describe, expect, it } from "vitest";
import { clampPage } from "./paging.server.ts";

describe("clampPage", () => {
  it.each([
    [0, 1, 10, { page: 1, pageCount: 1 }],
    [25, 2, 10, { page: 2, pageCount: 3 }],
    [25, 9, 10, { page: 3, pageCount: 3 }],
    [25, 0, 10, { page: 1, pageCount: 3 }],
    [25, 2.7, 10, { page: 2, pageCount: 3 }],
  ])("total %i, page %d, size %i", (total, page, size, expected) => {
    expect(clampPage(total, page, size)).toEqual(expected);
  });
});
