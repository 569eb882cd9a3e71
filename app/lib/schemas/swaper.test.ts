import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { isSafeUrl, swaperSchema } from "./swaper.ts";

describe("isSafeUrl", () => {
  it.each([
    ["/social.jpg", true],
    ["https://cdn.example/a.png", true],
    ["http://example.com", true],
    ["//evil.example/x", false],
    ["/\\evil.example", false],
    ["javascript:alert(1)", false],
    ["data:image/png;base64,AAAA", false],
    ["relative.png", false],
  ])("%s → %s", (url, ok) => expect(isSafeUrl(url)).toBe(ok));
});

describe("swaperSchema", () => {
  it("needs an image and refuses unsafe links and a window that ends before it starts", () => {
    const bad = validate(swaperSchema, {
      imageUrl: "",
      linkUrl: "javascript:alert(1)",
      startsAt: "2026-05-02T10:00",
      endsAt: "2026-05-01T10:00",
      sortOrder: "x",
    });
    expect(bad).toEqual({
      ok: false,
      errors: {
        imageUrl: "admin:errors.imageRequired",
        linkUrl: "admin:errors.urlInvalid",
        sortOrder: "admin:errors.orderInvalid",
        endsAt: "admin:errors.endBeforeStart",
      },
    });
  });

  it("accepts a minimal slide", () => {
    const ok = validate(swaperSchema, { imageUrl: "/a.jpg" });
    expect(ok.ok).toBe(true);
  });
});
