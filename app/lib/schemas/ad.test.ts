import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { adSchema, clickThroughRate } from "./ad.ts";
import { isHttpUrl, linkSchema } from "./link.ts";

describe("isHttpUrl", () => {
  it.each([
    ["https://example.com", true],
    ["http://127.0.0.1:3000/about", true],
    ["/about", false],
    ["//evil.example", false],
    ["javascript:alert(1)", false],
    ["ftp://example.com", false],
    ["data:text/html,hi", false],
  ])("%s → %s", (url, ok) => expect(isHttpUrl(url)).toBe(ok));
});

describe("linkSchema", () => {
  it("needs a name and an http(s) address; the logo may be site-relative", () => {
    expect(validate(linkSchema, { name: "", url: "javascript:alert(1)", logoUrl: "javascript:x" })).toEqual({
      ok: false,
      errors: {
        name: "admin:errors.nameRequired",
        url: "adminLinks:errors.httpUrl",
        logoUrl: "admin:errors.urlInvalid",
      },
    });
    const ok = validate(linkSchema, { name: " Friend ", url: "https://friend.example", logoUrl: "/logo.png" });
    expect(ok).toMatchObject({ ok: true, data: { name: "Friend", logoUrl: "/logo.png", sortOrder: "0" } });
  });
});

describe("adSchema", () => {
  const base = { placement: "home_top", kind: "text", title: "Ink", text: "Good", linkUrl: "https://shop.example" };

  it("accepts a text ad and an image ad", () => {
    expect(validate(adSchema, base).ok).toBe(true);
    expect(validate(adSchema, { ...base, kind: "image", text: "", imageUrl: "/ad.png" }).ok).toBe(true);
  });

  it("refuses unknown placements, non-http links, long text, bad weights and a reversed window", () => {
    const bad = validate(adSchema, {
      ...base,
      placement: "popup",
      linkUrl: "/local",
      text: "x".repeat(201),
      weight: "101",
      startsAt: "2026-05-02T10:00",
      endsAt: "2026-05-01T10:00",
    });
    expect(bad).toEqual({
      ok: false,
      errors: {
        placement: "adminLinks:errors.placementInvalid",
        linkUrl: "adminLinks:errors.httpUrl",
        text: "adminLinks:errors.textTooLong",
        weight: "adminLinks:errors.weightInvalid",
      },
    });
    expect(validate(adSchema, { ...base, weight: "0" })).toMatchObject({ ok: false });
    expect(validate(adSchema, { ...base, startsAt: "2026-05-02T10:00", endsAt: "2026-05-01T10:00" })).toEqual({
      ok: false,
      errors: { endsAt: "admin:errors.endBeforeStart" },
    });
  });

  it("needs an image for an image ad and text for a text ad", () => {
    expect(validate(adSchema, { ...base, kind: "image" })).toEqual({
      ok: false,
      errors: { imageUrl: "admin:errors.imageRequired" },
    });
    expect(validate(adSchema, { ...base, text: "" })).toEqual({
      ok: false,
      errors: { text: "adminLinks:errors.textRequired" },
    });
    expect(validate(adSchema, { ...base, kind: "image", imageUrl: "javascript:alert(1)" })).toMatchObject({
      ok: false,
      errors: { imageUrl: "admin:errors.urlInvalid" },
    });
  });
});

describe("clickThroughRate", () => {
  it("is a percentage with one decimal, or null without impressions", () => {
    expect(clickThroughRate(0, 0)).toBeNull();
    expect(clickThroughRate(1000, 25)).toBe(2.5);
    expect(clickThroughRate(3, 1)).toBe(33.3);
  });
});
