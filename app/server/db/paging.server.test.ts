import { describe, expect, it } from "vitest";
import { adminPage, clampPage } from "./paging.server.ts";

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

describe("adminPage", () => {
  it("asks for the clamped page's rows only", async () => {
    const asked: Array<[number, number]> = [];
    const rows = async (limit: number, offset: number) => {
      asked.push([limit, offset]);
      return [offset];
    };
    expect(await adminPage(25, { page: 9, pageSize: 10 }, rows)).toEqual({
      items: [20],
      total: 25,
      page: 3,
      pageCount: 3,
    });
    expect(await adminPage(0, { page: 2, pageSize: 10 }, rows)).toMatchObject({ page: 1, pageCount: 1 });
    expect(asked).toEqual([
      [10, 20],
      [10, 0],
    ]);
  });
});
