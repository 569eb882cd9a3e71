import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { termSchema } from "./term.ts";

describe("termSchema", () => {
  it("needs both names and a URL-safe slug", () => {
    expect(validate(termSchema, { nameEn: " ", slug: "Not a slug!" })).toEqual({
      ok: false,
      errors: {
        nameEn: "admin:errors.nameRequired",
        nameZh: "admin:errors.nameRequired",
        slug: "admin:errors.slugInvalid",
      },
    });
    expect(validate(termSchema, { nameEn: "Travel", nameZh: "旅行", slug: "-travel" }).ok).toBe(false);
  });

  it("says only that the name is required when the names and slug are empty (the server makes the slug)", () => {
    expect(validate(termSchema, { nameEn: "", nameZh: "", slug: "" })).toEqual({
      ok: false,
      errors: { nameEn: "admin:errors.nameRequired", nameZh: "admin:errors.nameRequired" },
    });
    expect(validate(termSchema, { nameEn: "Travel", nameZh: "旅行", slug: " " })).toMatchObject({
      ok: true,
      data: { slug: "" },
    });
  });

  it("lower-cases the slug and defaults the rest", () => {
    expect(validate(termSchema, { nameEn: "Travel", nameZh: "旅行", slug: "Travel-Notes" })).toEqual({
      ok: true,
      data: { nameEn: "Travel", nameZh: "旅行", slug: "travel-notes", description: "", sortOrder: "0" },
    });
  });
});
