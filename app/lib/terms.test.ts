import { describe, expect, it } from "vitest";
import { categoryOf, termName } from "./terms.ts";

describe("termName", () => {
  it("names a term in the reader's language, or the other when that one is empty", () => {
    expect(termName({ nameEn: "Code", nameZh: "编程" }, "zh")).toBe("编程");
    expect(termName({ nameEn: "Code", nameZh: "" }, "zh")).toBe("Code");
    expect(termName({ nameEn: "", nameZh: "编程" }, "en")).toBe("编程");
  });
});

describe("categoryOf", () => {
  const row = { categoryId: "c1", categorySlug: "code", categoryNameEn: "Code", categoryNameZh: "编程" };

  it("gives a post row's category named in the locale", () => {
    expect(categoryOf(row, "en")).toEqual({ id: "c1", slug: "code", name: "Code" });
    expect(categoryOf(row, "zh")).toEqual({ id: "c1", slug: "code", name: "编程" });
  });

  it("is null for a post without a category (the join found nothing)", () => {
    expect(categoryOf({ categoryId: null, categorySlug: null, categoryNameEn: null, categoryNameZh: null }, "en")).toBe(
      null,
    );
  });
});
