import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { createCategory, ensureTags } from "../taxonomy/taxonomy.server.ts";
import type { NewPostInput } from "./lifecycle.server.ts";
import {
  canView,
  displayName,
  findNeighbours,
  findPostDetail,
  findRelatedPosts,
  isPublic,
  RELATED_CANDIDATES,
  RELATED_WALK,
} from "./post-detail.server.ts";
import { createPost } from "./posts.server.ts";

let database: TestDatabase;
let authorId: string;
let otherUserId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  authorId = await insertUser(database.db, { email: "ada.lovelace@example.test", name: "Ada" });
  otherUserId = await insertUser(database.db, { email: "bob@example.test", name: "" });
});
afterAll(async () => {
  await database.cleanup();
});

let counter = 0;
function post(overrides: Partial<NewPostInput> = {}): Promise<string> {
  counter += 1;
  return createPost(database.db, {
    slug: `post-${counter}`,
    authorId,
    status: "published",
    publishedAt: `2026-10-${String(counter).padStart(2, "0")}T08:00:00.000Z`,
    translations: [{ locale: "en", title: `Post ${counter}` }],
    ...overrides,
  });
}

describe("findPostDetail", () => {
  it("gives the reader's language, the other one as fallback, and what the page needs", async () => {
    const { db } = database;
    const categoryId = await createCategory(db, { slug: "notes", nameEn: "Notes", nameZh: "笔记" });
    const tagIds = await ensureTags(db, ["Testing", "Kysely"]);
    const toc = [
      { depth: 2, id: "intro", text: "Intro" },
      { depth: 3, id: "details", text: "Details" },
    ];
    const id = await post({
      categoryId,
      tagIds,
      coverImageUrl: "/uploads/cover.webp",
      coverAlt: "A desk",
      translations: [
        {
          locale: "en",
          title: "Hello",
          summary: "Sum",
          bodyHtml: '<h2 id="intro">Intro</h2>',
          tocJson: JSON.stringify(toc),
          readingMinutes: 4,
          seoTitle: "Hello (SEO)",
        },
        { locale: "zh", title: "你好", summary: "摘要", bodyHtml: "<p>正文</p>", readingMinutes: 2 },
      ],
    });

    const en = await findPostDetail(db, id, "en");
    expect(en).toMatchObject({
      id,
      status: "published",
      authorName: "Ada",
      coverImageUrl: "/uploads/cover.webp",
      coverAlt: "A desk",
      category: { slug: "notes", name: "Notes" },
      isFallback: false,
      locales: ["en", "zh"],
      translation: {
        locale: "en",
        title: "Hello",
        summary: "Sum",
        readingMinutes: 4,
        seoTitle: "Hello (SEO)",
        seoDescription: null,
        toc,
      },
    });
    expect(en?.tags.map((t) => t.slug)).toEqual(["kysely", "testing"]);

    const zh = await findPostDetail(db, id, "zh");
    expect(zh?.translation).toMatchObject({ locale: "zh", title: "你好", bodyHtml: "<p>正文</p>", toc: [] });
    expect(zh?.category?.name).toBe("笔记");
  });

  it("falls back to the only language there is", async () => {
    const id = await post({ translations: [{ locale: "zh", title: "只有中文" }] });
    const detail = await findPostDetail(database.db, id, "en");
    expect(detail?.isFallback).toBe(true);
    expect(detail?.translation.locale).toBe("zh");
    expect(detail?.locales).toEqual(["zh"]);
  });

  it("never derives a name from an author's e-mail address", async () => {
    const id = await post({ authorId: otherUserId });
    expect((await findPostDetail(database.db, id, "en"))?.authorName).toBeNull();
    expect(displayName("  Ada ")).toBe("Ada");
    expect(displayName("  ")).toBeNull();
    expect(displayName(null)).toBeNull();
  });

  it("answers undefined for an unknown id and ignores a broken table of contents", async () => {
    expect(await findPostDetail(database.db, "no-such-post", "en")).toBeUndefined();
    const id = await post({ translations: [{ locale: "en", title: "T", tocJson: "{not json" }] });
    expect((await findPostDetail(database.db, id, "en"))?.translation.toc).toEqual([]);
  });
});

describe("visibility", () => {
  const admin = () => ({ id: "someone-else", isAdmin: true });
  const author = () => ({ id: authorId, isAdmin: false });
  const stranger = () => ({ id: otherUserId, isAdmin: false });

  it("shows published posts to everyone", async () => {
    const detail = await findPostDetail(database.db, await post(), "en");
    if (!detail) throw new Error("missing");
    expect(isPublic(detail)).toBe(true);
    for (const viewer of [null, stranger(), author(), admin()]) expect(canView(detail, viewer)).toBe(true);
  });

  it("shows drafts and scheduled posts to their author and admins only", async () => {
    for (const status of ["draft", "scheduled"] as const) {
      const id = await post({ status, publishedAt: status === "scheduled" ? "2027-01-01T00:00:00.000Z" : null });
      const detail = await findPostDetail(database.db, id, "en");
      if (!detail) throw new Error("missing");
      expect(isPublic(detail)).toBe(false);
      expect(canView(detail, null)).toBe(false);
      expect(canView(detail, stranger())).toBe(false);
      expect(canView(detail, author())).toBe(true);
      expect(canView(detail, admin())).toBe(true);
    }
  });

  it("shows the trash to admins only", async () => {
    const id = await post();
    await database.db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", id).execute();
    const detail = await findPostDetail(database.db, id, "en");
    if (!detail) throw new Error("missing");
    expect(isPublic(detail)).toBe(false);
    expect(canView(detail, null)).toBe(false);
    expect(canView(detail, author())).toBe(false);
    expect(canView(detail, admin())).toBe(true);
  });
});

/** Makes published posts `n` hours after the start of 2025, tagged as given, titled by slug. */
function hourly(db: TestDatabase["db"]) {
  return (slug: string, tagIds: string[], n: number, extra: Partial<NewPostInput> = {}) =>
    createPost(db, {
      slug,
      authorId: null,
      status: "published",
      publishedAt: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
      translations: [{ locale: "en", title: slug }],
      tagIds,
      ...extra,
    });
}

describe("neighbours and related posts", () => {
  it("link the published posts around a post by date, in the reader's language", async () => {
    const db = await createTestDatabase();
    try {
      const make = (slug: string, publishedAt: string | null, extra: Partial<NewPostInput> = {}) =>
        createPost(db.db, {
          slug,
          authorId: null,
          status: "published",
          publishedAt,
          translations: [{ locale: "en", title: slug.toUpperCase() }],
          ...extra,
        });
      const first = await make("first", "2026-01-01T00:00:00.000Z", {
        translations: [{ locale: "zh", title: "第一" }],
      });
      await make("draft", "2026-01-02T00:00:00.000Z", { status: "draft" });
      const middle = await make("middle", "2026-01-03T00:00:00.000Z");
      const trashed = await make("trashed", "2026-01-04T00:00:00.000Z");
      await db.db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashed).execute();
      const last = await make("last", "2026-01-05T00:00:00.000Z");

      const around = await findNeighbours(db.db, { id: middle, publishedAt: "2026-01-03T00:00:00.000Z" }, "en");
      expect(around.previous).toMatchObject({ id: first, title: "第一", locale: "zh", isFallback: true });
      expect(around.next).toMatchObject({ id: last, title: "LAST", isFallback: false });
      const edge = await findNeighbours(db.db, { id: last, publishedAt: "2026-01-05T00:00:00.000Z" }, "en");
      expect(edge.next).toBeNull();
      expect(edge.previous?.id).toBe(middle);

      const [a, b, c, d] = (await ensureTags(db.db, ["a", "b", "c", "d"])) as [string, string, string, string];
      const tagged = (slug: string, tags: string[], day: number, extra: Partial<NewPostInput> = {}) =>
        make(slug, `2026-02-${String(day).padStart(2, "0")}T00:00:00.000Z`, { tagIds: tags, ...extra });
      const subject = await tagged("subject", [a, b, c], 1);
      const three = await tagged("three", [a, b, c], 2);
      const oneOld = await tagged("one-old", [a], 3);
      const two = await tagged("two", [b, c, d], 4);
      const oneNew = await tagged("one-new", [c], 5);
      await tagged("unrelated", [d], 6);
      await tagged("draft-related", [a, b, c], 7, { status: "draft" });
      const related = await findRelatedPosts(db.db, subject, "en");
      expect(related.map((r) => r.id)).toEqual([three, two, oneNew]);
      expect(related.map((r) => r.id)).not.toContain(oneOld);
      expect(await findRelatedPosts(db.db, first, "en")).toEqual([]);
    } finally {
      await db.cleanup();
    }
  });

  it("weighs only the newest RELATED_CANDIDATES posts sharing a tag, so the cost stays flat", async () => {
    const db = await createTestDatabase();
    try {
      const [a, b] = (await ensureTags(db.db, ["a", "b"])) as [string, string];
      const make = hourly(db.db);
      const subject = await make("subject", [a, b], 0);
      // Shares both tags, but older than every candidate.
      const oldBoth = await make("old-both", [a, b], 1);
      const newer: string[] = [];
      for (let n = 0; n < RELATED_CANDIDATES; n++) newer.push(await make(`newer-${n}`, [a], 2 + n));
      const related = await findRelatedPosts(db.db, subject, "en");
      expect(related.map((r) => r.id)).not.toContain(oldBoth);
      expect(related.map((r) => r.id)).toEqual(newer.slice(-3).reverse());
      // Within the candidates, more shared tags still come first.
      const recentBoth = await make("recent-both", [a, b], 5);
      expect((await findRelatedPosts(db.db, subject, "en"))[0]?.id).toBe(recentBoth);
    } finally {
      await db.cleanup();
    }
  });

  it("reads the tags' rows when the newest RELATED_WALK posts hold too few sharing posts", async () => {
    const db = await createTestDatabase();
    try {
      const [rare, other, common] = (await ensureTags(db.db, ["rare", "other", "common"])) as [string, string, string];
      const make = hourly(db.db);
      // Older than the walk reaches: sharing two tags, one tag, and a draft and a trashed
      // post sharing both, which must not show.
      const oldOne = await make("old-one", [rare], 1);
      const oldBoth = await make("old-both", [rare, other], 2);
      await make("old-draft", [rare, other], 3, { status: "draft" });
      const trashed = await make("old-trashed", [rare, other], 4);
      await db.db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashed).execute();
      const subject = await make("subject", [rare, other], 5);
      const untagged = await make("untagged", [], 6);
      // The walk's posts: none shares a tag with the subject.
      for (let n = 0; n < RELATED_WALK; n++) await make(`recent-${n}`, [common], 10 + n);

      const related = await findRelatedPosts(db.db, subject, "en");
      expect(related.map((r) => r.id)).toEqual([oldBoth, oldOne]);
      expect(related[0]).toMatchObject({ title: "old-both", isFallback: false });
      expect(await findRelatedPosts(db.db, untagged, "en")).toEqual([]);
      // A recent post sharing one tag is found by the walk, and the tags' rows still
      // rank the old post sharing two above it.
      const recentOne = await make("recent-rare", [rare], 10 + RELATED_WALK);
      expect((await findRelatedPosts(db.db, subject, "en")).map((r) => r.id)).toEqual([oldBoth, recentOne, oldOne]);
    } finally {
      await db.cleanup();
    }
  });
});
