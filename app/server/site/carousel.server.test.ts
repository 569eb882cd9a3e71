import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import {
  createSlide,
  deleteSlide,
  getSlide,
  listSlidesForAdmin,
  MAX_SLIDES,
  moveSlide,
  slidesInWindow,
  updateSlide,
} from "./carousel.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("slidesInWindow", () => {
  it("shows enabled slides inside their window, in order, in the reader's language", async () => {
    const { db } = database;
    const now = "2026-06-01T00:00:00.000Z";
    await createSlide(db, { titleEn: "Second", titleZh: "第二", imageUrl: "/b.jpg", sortOrder: 2 });
    await createSlide(db, { titleEn: "First", titleZh: "", imageUrl: "/a.jpg", sortOrder: 1 });
    await createSlide(db, { titleEn: "Off", imageUrl: "/off.jpg", enabled: false });
    await createSlide(db, { titleEn: "Future", imageUrl: "/f.jpg", startsAt: "2026-07-01T00:00:00.000Z" });
    await createSlide(db, { titleEn: "Past", imageUrl: "/p.jpg", endsAt: "2026-06-01T00:00:00.000Z" });
    await createSlide(db, {
      titleEn: "Window",
      imageUrl: "/w.jpg",
      sortOrder: 3,
      startsAt: "2026-05-01T00:00:00.000Z",
      endsAt: "2026-07-01T00:00:00.000Z",
    });

    const en = (await slidesInWindow(db, "en", now)).slides;
    expect(en.map((s) => s.title)).toEqual(["First", "Second", "Window"]);
    const zh = (await slidesInWindow(db, "zh", now)).slides;
    expect(zh.map((s) => s.title)).toEqual(["First", "第二", "Window"]);
  });

  it(`returns at most ${MAX_SLIDES}`, async () => {
    const { db } = database;
    for (let i = 0; i < MAX_SLIDES + 2; i++) await createSlide(db, { imageUrl: `/x${i}.jpg`, sortOrder: 10 + i });
    expect((await slidesInWindow(db, "en")).slides).toHaveLength(MAX_SLIDES);
  });
});

describe("admin slide operations", () => {
  it("lists with search and pages, updates, reorders and deletes", async () => {
    const { db } = database;
    await db.deleteFrom("swapers").execute();
    const a = await createSlide(db, { titleEn: "Alpha 100%", titleZh: "甲", imageUrl: "/a.jpg", sortOrder: 1 });
    const b = await createSlide(db, { titleEn: "Beta", titleZh: "乙", imageUrl: "/b.jpg", sortOrder: 2 });
    const c = await createSlide(db, { titleEn: "Gamma", titleZh: "丙", imageUrl: "/c.jpg", sortOrder: 3 });

    expect((await listSlidesForAdmin(db, { q: "乙", page: 1, pageSize: 10 })).items.map((s) => s.id)).toEqual([b]);
    // % is matched literally, not as a wildcard.
    expect((await listSlidesForAdmin(db, { q: "100%", page: 1, pageSize: 10 })).items.map((s) => s.id)).toEqual([a]);
    expect((await listSlidesForAdmin(db, { q: "%", page: 1, pageSize: 10 })).items.map((s) => s.id)).toEqual([a]);
    const paged = await listSlidesForAdmin(db, { page: 9, pageSize: 2 });
    expect(paged).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(paged.items.map((s) => s.id)).toEqual([c]);

    expect(await db.transaction().execute((trx) => moveSlide(trx, c, 0))).toBe(true);
    expect((await listSlidesForAdmin(db, { page: 1, pageSize: 10 })).items.map((s) => s.id)).toEqual([c, a, b]);
    expect(await moveSlide(db, "missing", 0)).toBe(false);

    const before = await getSlide(db, b);
    if (!before) throw new Error("slide b missing");
    expect(await updateSlide(db, b, { ...before, titleEn: "Beta 2", enabled: false, linkUrl: null })).toBe(true);
    expect(await getSlide(db, b)).toMatchObject({ titleEn: "Beta 2", enabled: false });
    expect(await updateSlide(db, "missing", { ...before })).toBe(false);

    expect(await deleteSlide(db, a)).toBe(true);
    expect(await deleteSlide(db, a)).toBe(false);
    expect(await getSlide(db, a)).toBeUndefined();
  });
});
