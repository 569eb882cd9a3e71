import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import {
  isCoverUrl,
  isoToLocalDateTime,
  localDateTimeToIso,
  localeOfField,
  makePostFormSchema,
  POST_LIMITS,
  splitTags,
} from "./post.ts";

const NOW = Date.parse("2026-11-22T12:00:00.000Z");
const schema = makePostFormSchema(() => NOW);

const base = { status: "draft", enTitle: "Hello" };
const check = (fields: Record<string, string>) => validate(schema, fields);
const errorsOf = (fields: Record<string, string>) => {
  const result = check(fields);
  return result.ok ? {} : result.errors;
};

describe("post form schema", () => {
  it('reads the newsletter box: ticked is "1", anything else is refused', () => {
    expect(check({ ...base, newsletter: "1" })).toMatchObject({ ok: true, data: { newsletter: true } });
    expect(check({ ...base, newsletter: "yes" })).toMatchObject({ ok: false });
  });

  it("reads Share on the Fediverse only from a form that has the box", () => {
    const data = (fields: Record<string, string>) => {
      const result = check({ ...base, ...fields });
      return result.ok ? result.data : null;
    };
    expect(data({ federateShown: "1", federate: "1" })?.federate).toBe(true);
    expect(data({ federateShown: "1" })?.federate).toBe(false);
    // No marker (another caller's form): the post keeps what it has.
    expect(data({})).not.toHaveProperty("federate");
    expect(check({ ...base, federateShown: "1", federate: "on" })).toMatchObject({ ok: false });
  });

  it("accepts a minimal English draft and builds the repository input", () => {
    expect(check(base)).toEqual({
      ok: true,
      data: {
        key: undefined,
        version: undefined,
        slug: "",
        categoryId: null,
        tags: [],
        coverImageUrl: null,
        coverAlt: "",
        status: "draft",
        publishAt: null,
        newsletter: false,
        seriesId: null,
        seriesPosition: null,
        newSeries: null,
        translations: [
          { locale: "en", title: "Hello", summary: "", bodyMarkdown: "", seoTitle: null, seoDescription: null },
        ],
      },
    });
  });

  it("reads the series fields: a series and part number, or a new series that needs a name", () => {
    expect(check({ ...base, seriesId: "abc", seriesPosition: "2" })).toMatchObject({
      ok: true,
      data: { seriesId: "abc", seriesPosition: 2, newSeries: null },
    });
    // A part number without a series means nothing.
    expect(check({ ...base, seriesPosition: "2" })).toMatchObject({ ok: true, data: { seriesPosition: null } });
    expect(check({ ...base, seriesId: "new", seriesNameZh: "指南" })).toMatchObject({
      ok: true,
      data: { seriesId: null, newSeries: { nameEn: "", nameZh: "指南" } },
    });
    expect(check({ ...base, seriesId: "new" })).toMatchObject({
      ok: false,
      errors: { seriesNameEn: "editor:errors.seriesNameRequired" },
    });
    for (const bad of ["0", "10000", "1.5", "x"])
      expect(check({ ...base, seriesId: "abc", seriesPosition: bad }), bad).toMatchObject({ ok: false });
  });

  it("takes a form's FormData, both languages, and keeps the body's whitespace", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      key: "0123456789abcdefghjk",
      version: "3",
      enTitle: "  Hello  ",
      enBody: "  indented code\n",
      zhTitle: "你好",
      zhSummary: "摘要",
      zhSeoTitle: "SEO 标题",
      slug: "Hello-World",
      tags: "a, b，c、A",
      coverImageUrl: "/uploads/x.jpg",
      status: "published",
    }))
      form.set(k, v);
    const result = check(Object.fromEntries(form) as Record<string, string>);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.data).toMatchObject({
      key: "0123456789abcdefghjk",
      version: 3,
      slug: "hello-world",
      tags: ["a", "b", "c"],
      coverImageUrl: "/uploads/x.jpg",
      status: "published",
    });
    expect(result.data.translations).toEqual([
      {
        locale: "en",
        title: "Hello",
        summary: "",
        bodyMarkdown: "  indented code\n",
        seoTitle: null,
        seoDescription: null,
      },
      { locale: "zh", title: "你好", summary: "摘要", bodyMarkdown: "", seoTitle: "SEO 标题", seoDescription: null },
    ]);
  });

  it("needs a title in at least one language", () => {
    expect(errorsOf({ status: "draft" })).toEqual({ enTitle: "editor:errors.oneTitleRequired" });
    expect(check({ status: "draft", zhTitle: "只有中文" }).ok).toBe(true);
  });

  it("needs a title in every language that has any content", () => {
    for (const field of ["Summary", "Body", "SeoTitle", "SeoDescription"]) {
      expect(errorsOf({ ...base, [`zh${field}`]: "内容" }), field).toEqual({
        zhTitle: "editor:errors.titleRequiredWithContent",
      });
    }
    expect(errorsOf({ status: "draft", enBody: "words" })).toEqual({
      enTitle: "editor:errors.titleRequiredWithContent",
    });
    // Whitespace is no content.
    expect(check({ ...base, zhBody: "  \n " }).ok).toBe(true);
  });

  it("limits lengths: title, summary, body, SEO fields", () => {
    const long = (n: number) => "x".repeat(n);
    expect(check({ ...base, enTitle: long(POST_LIMITS.titleMax) }).ok).toBe(true);
    expect(errorsOf({ ...base, enTitle: long(POST_LIMITS.titleMax + 1) })).toEqual({
      enTitle: "editor:errors.titleTooLong",
    });
    expect(errorsOf({ ...base, zhTitle: "t", zhSummary: long(POST_LIMITS.summaryMax + 1) })).toEqual({
      zhSummary: "editor:errors.summaryTooLong",
    });
    expect(check({ ...base, enBody: long(POST_LIMITS.bodyMax) }).ok).toBe(true);
    expect(errorsOf({ ...base, enBody: long(POST_LIMITS.bodyMax + 1) })).toEqual({
      enBody: "editor:errors.bodyTooLong",
    });
    expect(errorsOf({ ...base, enSeoTitle: long(201) })).toEqual({ enSeoTitle: "editor:errors.seoTitleTooLong" });
    expect(errorsOf({ ...base, enSeoDescription: long(501) })).toEqual({
      enSeoDescription: "editor:errors.seoDescriptionTooLong",
    });
  });

  it.each([
    ["a", true],
    ["hello-world-2", true],
    ["UPPER", true],
    ["-lead", false],
    ["trail-", false],
    ["double--dash", false],
    ["with space", false],
    ["中文", false],
    ["a_b", false],
    ["x".repeat(81), false],
  ])("slug %j valid: %s", (slug, ok) => {
    expect(check({ ...base, slug }).ok).toBe(ok);
  });

  it.each([
    ["https://example.test/a.jpg", true],
    ["http://example.test/a.jpg", true],
    ["/uploads/a.jpg", true],
    ["//evil.test/a.jpg", false],
    ["/\\evil.test", false],
    ["javascript:alert(1)", false],
    ["data:image/png;base64,AAAA", false],
    ["ftp://example.test/a.jpg", false],
    ["uploads/a.jpg", false],
    ["https://", false],
    ["https://exa mple.test", false],
  ])("cover URL %j valid: %s", (url, ok) => {
    expect(isCoverUrl(url)).toBe(ok);
    expect(check({ ...base, coverImageUrl: url }).ok).toBe(ok);
  });

  it("accepts only the three statuses", () => {
    expect(errorsOf({ ...base, status: "deleted" })).toEqual({ status: "editor:errors.statusInvalid" });
    expect(errorsOf({ enTitle: "x" })).toEqual({ status: "editor:errors.statusInvalid" });
  });

  it("needs a future publish time for a scheduled post", () => {
    expect(errorsOf({ ...base, status: "scheduled" })).toEqual({ publishAtLocal: "editor:errors.publishAtRequired" });
    expect(errorsOf({ ...base, status: "scheduled", publishAtLocal: "2026-11-22T11:59" })).toEqual({
      publishAtLocal: "editor:errors.publishAtPast",
    });
    const ok = check({ ...base, status: "scheduled", publishAtLocal: "2026-11-22T20:30", publishAtTz: "-480" });
    expect(ok.ok && ok.data.publishAt).toBe("2026-11-22T12:30:00.000Z");
    // 20:30 in UTC+8 is 12:30 UTC; read as UTC it would be later, but in China it is past.
    expect(errorsOf({ ...base, status: "scheduled", publishAtLocal: "2026-11-22T19:30", publishAtTz: "-480" })).toEqual(
      { publishAtLocal: "editor:errors.publishAtPast" },
    );
  });

  it("refuses a published post dated in the future, and a nonsense time", () => {
    expect(errorsOf({ ...base, status: "published", publishAtLocal: "2026-12-01T00:00" })).toEqual({
      publishAtLocal: "editor:errors.publishedInFuture",
    });
    expect(check({ ...base, status: "published", publishAtLocal: "2020-01-01T00:00" }).ok).toBe(true);
    for (const bad of ["tomorrow", "2026-02-31T10:00", "2026-11-22", "2026-11-22T25:00"]) {
      expect(errorsOf({ ...base, publishAtLocal: bad }), bad).toEqual({
        publishAtLocal: "editor:errors.publishAtInvalid",
      });
    }
  });

  it("allows at most 10 tags of at most 40 characters", () => {
    const tags = (n: number) => Array.from({ length: n }, (_, i) => `tag${i}`).join(",");
    expect(check({ ...base, tags: tags(10) }).ok).toBe(true);
    expect(errorsOf({ ...base, tags: tags(11) })).toEqual({ tags: "editor:errors.tooManyTags" });
    expect(errorsOf({ ...base, tags: "x".repeat(41) })).toEqual({ tags: "editor:errors.tagTooLong" });
    // Duplicates (any case) count once.
    expect(check({ ...base, tags: `${tags(10)},TAG1,tag2` }).ok).toBe(true);
  });

  it("refuses a malformed idempotency key or version", () => {
    expect(errorsOf({ ...base, key: "../etc" })).toEqual({ key: "editor:errors.invalidForm" });
    expect(errorsOf({ ...base, version: "0" })).toEqual({ version: "editor:errors.invalidForm" });
    expect(errorsOf({ ...base, version: "1e3" })).toEqual({ version: "editor:errors.invalidForm" });
  });

  it("uses the overwrite version after a conflict", () => {
    const result = check({ ...base, version: "2", overwriteVersion: "5" });
    expect(result.ok && result.data.version).toBe(5);
  });
});

describe("helpers", () => {
  it("converts datetime-local values with the browser's offset, both ways", () => {
    expect(localDateTimeToIso("2026-11-22T08:00", 0)).toBe("2026-11-22T08:00:00.000Z");
    expect(localDateTimeToIso("2026-11-22T08:00", -480)).toBe("2026-11-22T00:00:00.000Z");
    expect(localDateTimeToIso("2026-11-22T08:00", 300)).toBe("2026-11-22T13:00:00.000Z");
    expect(isoToLocalDateTime("2026-11-22T00:00:00.000Z", -480)).toBe("2026-11-22T08:00");
    expect(isoToLocalDateTime(null, 0)).toBe("");
    expect(localDateTimeToIso("2026-13-01T00:00", 0)).toBeNull();
  });

  it("splits tags on commas of both languages", () => {
    expect(splitTags(" React ,  react,Vue，前端、  后端 ,, ")).toEqual(["React", "Vue", "前端", "后端"]);
  });

  it("knows which language a field belongs to", () => {
    expect(localeOfField("zhBody")).toBe("zh");
    expect(localeOfField("enSeoTitle")).toBe("en");
    expect(localeOfField("slug")).toBeNull();
  });
});
