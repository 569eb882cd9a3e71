import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { adContent, adSchema, clickThroughRate } from "./ad.ts";
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
  const base = { placement: "home_top", kind: "text", titleEn: "Ink", textEn: "Good", linkUrl: "https://shop.example" };

  it("accepts a text ad and an image ad", () => {
    expect(validate(adSchema, base).ok).toBe(true);
    expect(validate(adSchema, { ...base, kind: "image", textEn: "", imageUrlEn: "/ad.png" }).ok).toBe(true);
  });

  it("refuses unknown placements, non-http links, long text, bad weights and a reversed window", () => {
    const bad = validate(adSchema, {
      ...base,
      placement: "popup",
      linkUrl: "/local",
      textEn: "x".repeat(201),
      weight: "101",
      startsAt: "2026-05-02T10:00",
      endsAt: "2026-05-01T10:00",
    });
    expect(bad).toEqual({
      ok: false,
      errors: {
        placement: "adminLinks:errors.placementInvalid",
        linkUrl: "adminLinks:errors.httpUrl",
        textEn: "adminLinks:errors.textTooLong",
        weight: "adminLinks:errors.weightInvalid",
      },
    });
    expect(validate(adSchema, { ...base, weight: "0" })).toMatchObject({ ok: false });
    expect(validate(adSchema, { ...base, startsAt: "2026-05-02T10:00", endsAt: "2026-05-01T10:00" })).toEqual({
      ok: false,
      errors: { endsAt: "admin:errors.endBeforeStart" },
    });
    expect(validate(adSchema, { ...base, startsAt: "2026-02-31T10:00" })).toEqual({
      ok: false,
      errors: { startsAt: "admin:errors.dateInvalid" },
    });
  });

  it("needs an image for an image ad and text for a text ad", () => {
    expect(validate(adSchema, { ...base, kind: "image" })).toEqual({
      ok: false,
      errors: { imageUrlEn: "admin:errors.imageRequired" },
    });
    expect(validate(adSchema, { ...base, textEn: "" })).toEqual({
      ok: false,
      errors: { textEn: "adminLinks:errors.textRequired" },
    });
    expect(validate(adSchema, { ...base, kind: "image", imageUrlEn: "javascript:alert(1)" })).toMatchObject({
      ok: false,
      errors: { imageUrlEn: "admin:errors.urlInvalid" },
    });
  });

  it("takes either language or both, and checks every version that is filled in", () => {
    const zhOnly = { ...base, titleEn: "", textEn: "", titleZh: "墨水", textZh: "好墨水" };
    expect(validate(adSchema, zhOnly)).toMatchObject({ ok: true, data: { titleEn: "", titleZh: "墨水" } });
    expect(validate(adSchema, { ...base, titleZh: "墨水", textZh: "好墨水" }).ok).toBe(true);
    // Nothing in either language: one error, on the first title.
    expect(validate(adSchema, { ...base, titleEn: " ", textEn: "" })).toEqual({
      ok: false,
      errors: { titleEn: "adminLinks:errors.contentRequired" },
    });
    // A Chinese version begun but not finished.
    expect(validate(adSchema, { ...base, textZh: "好墨水" })).toEqual({
      ok: false,
      errors: { titleZh: "adminLinks:errors.titleRequired" },
    });
    expect(validate(adSchema, { ...base, titleZh: "墨水" })).toEqual({
      ok: false,
      errors: { textZh: "adminLinks:errors.textRequired" },
    });
    expect(
      validate(adSchema, { ...base, kind: "image", imageUrlEn: "/en.png", titleZh: "墨水", imageAltZh: "墨水瓶" }),
    ).toEqual({ ok: false, errors: { imageUrlZh: "admin:errors.imageRequired" } });
    expect(validate(adSchema, { ...base, titleZh: "墨".repeat(121), textZh: "x" })).toMatchObject({
      ok: false,
      errors: { titleZh: "admin:errors.titleTooLong" },
    });
  });
});

describe("adContent", () => {
  const empty = { titleEn: "", textEn: "", imageUrlEn: null, imageAltEn: "" };
  const zh = { titleZh: "墨水", textZh: "好墨水", imageUrlZh: "/zh.png", imageAltZh: "墨水瓶" };
  it("is the reader's version, or the other one when that is empty", () => {
    const both = { titleEn: "Ink", textEn: "Good ink", imageUrlEn: "/en.png", imageAltEn: "A bottle", ...zh };
    expect(adContent(both, "en")).toEqual({
      title: "Ink",
      text: "Good ink",
      imageUrl: "/en.png",
      imageAlt: "A bottle",
    });
    expect(adContent(both, "zh")).toEqual({ title: "墨水", text: "好墨水", imageUrl: "/zh.png", imageAlt: "墨水瓶" });
    expect(adContent({ ...empty, ...zh }, "en")).toEqual(adContent(both, "zh"));
  });
});

describe("clickThroughRate", () => {
  it("is a percentage with one decimal, or null without impressions", () => {
    expect(clickThroughRate(0, 0)).toBeNull();
    expect(clickThroughRate(1000, 25)).toBe(2.5);
    expect(clickThroughRate(3, 1)).toBe(33.3);
  });
});
