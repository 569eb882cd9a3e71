import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jpeg } from "../../../tests/fixtures/images.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { collectGarbage, storeUpload } from "../media/media.server.ts";
import { SYSTEM, withPostLifecycle } from "../posts/lifecycle.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { updateSiteSettings } from "../site/site-settings.server.ts";
import { createLocalStorage } from "../storage/local.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { CARD_FILE, findSocialCard } from "./cards.server.ts";
import { type CardContent, renderCard } from "./render.server.ts";
import { syncSocialCards } from "./sync.server.ts";

async function allKeys(storage: StorageDriver): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys.sort();
}

describe(`the social card job (${testDialect()})`, () => {
  let database: TestDatabase;
  let root: string;
  let storage: StorageDriver;
  let drawn: CardContent[];

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });
  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "inkwell-cards-"));
    storage = createLocalStorage(root);
    drawn = [];
    for (const table of ["socialCards", "media", "postTranslations", "posts", "siteSettings"] as const) {
      await database.db.deleteFrom(table).execute();
    }
    return () => rmSync(root, { recursive: true, force: true });
  });

  const sync = () =>
    syncSocialCards({
      db: database.db,
      storage,
      render: (content) => {
        drawn.push(content);
        return renderCard(content);
      },
    });

  const publish = (title: { en: string; zh: string }, coverImageUrl: string | null = null) =>
    createPost(database.db, {
      slug: `post-${Math.random().toString(36).slice(2)}`,
      authorId: null,
      status: "published",
      publishedAt: "2026-01-01T00:00:00.000Z",
      coverImageUrl,
      translations: [
        { locale: "en", title: title.en },
        { locale: "zh", title: title.zh },
      ],
    });

  it("draws one 1200×630 card per live language, stored and served like an upload", async () => {
    const postId = await publish({ en: "Moving house", zh: "搬家" });
    await createPost(database.db, {
      slug: "a-draft",
      authorId: null,
      status: "draft",
      publishedAt: null,
      translations: [{ locale: "en", title: "Not yet" }],
    });
    const result = await sync();
    expect(result).toMatchObject({ made: 2, removed: 0, remaining: 0, changed: [postId] });
    expect(drawn.map((c) => [c.locale, c.title, c.siteName])).toEqual([
      ["en", "Moving house", "Inkwell"],
      ["zh", "搬家", "墨水博客"],
    ]);
    const en = await findSocialCard(database.db, postId, "en");
    const zh = await findSocialCard(database.db, postId, "zh");
    expect(en).toMatchObject({ contentType: "image/jpeg", width: 1200, height: 630 });
    expect(en?.url).toMatch(/^\/media\/[0-9a-z]{20}\/card\.jpg$/);
    expect(zh?.url).not.toBe(en?.url);
    for (const card of [en, zh]) {
      const object = await storage.get((card?.url ?? "").replace(/^\/media\//, ""));
      expect(object.contentType).toBe("image/jpeg");
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      expect(await sharp(Buffer.concat(chunks)).metadata()).toMatchObject({ width: 1200, height: 630 });
    }
    // Media garbage collection leaves the cards alone.
    const gc = await collectGarbage({ db: database.db, storage }, { remove: false, now: Date.now() + 10 * 3600_000 });
    expect(gc.orphans).toEqual([]);
  });

  it("draws a card once, and again only for the language whose title changed", async () => {
    const postId = await publish({ en: "First title", zh: "第一个标题" });
    await sync();
    const before = await findSocialCard(database.db, postId, "zh");
    const oldEn = await findSocialCard(database.db, postId, "en");
    drawn = [];
    expect(await sync()).toMatchObject({ made: 0, changed: [] });
    expect(drawn).toEqual([]);

    await withPostLifecycle(database.db, SYSTEM, async (life) => {
      await life.trx
        .updateTable("postTranslations")
        .set({ title: "A better title" })
        .where("postId", "=", postId)
        .where("locale", "=", "en")
        .execute();
      await life.record(postId, "update");
    });
    expect(await sync()).toMatchObject({ made: 1, changed: [postId] });
    expect(drawn.map((c) => c.title)).toEqual(["A better title"]);
    const after = await findSocialCard(database.db, postId, "en");
    expect(after?.url).not.toBe(oldEn?.url);
    expect(await findSocialCard(database.db, postId, "zh")).toEqual(before);
    // The old file is gone: two cards, two files.
    expect(await allKeys(storage)).toHaveLength(2);
    expect(await allKeys(storage)).not.toContain((oldEn?.url ?? "").replace(/^\/media\//, ""));
  });

  it("draws the cover, and again when the cover or the site name changes", async () => {
    const cover = await storeUpload(
      { db: database.db, storage },
      { fileName: "c.jpg", data: await jpeg(900, 600), uploadedBy: null },
    );
    const postId = await publish({ en: "With a cover", zh: "有封面" }, `/media/${cover.id}/image.jpg`);
    await sync();
    expect(drawn.every((c) => c.cover !== null)).toBe(true);

    drawn = [];
    await database.db.updateTable("posts").set({ coverImageUrl: null }).where("id", "=", postId).execute();
    expect(await sync()).toMatchObject({ made: 2 });
    expect(drawn.every((c) => c.cover === null)).toBe(true);

    drawn = [];
    await updateSiteSettings(database.db, { siteName: { en: "Inkwell", zh: "新名字" } });
    expect(await sync()).toMatchObject({ made: 1 });
    expect(drawn.map((c) => [c.locale, c.siteName])).toEqual([["zh", "新名字"]]);
  });

  it("draws every card again in the brand's accent and logo when the brand changes", async () => {
    const logo = await storeUpload(
      { db: database.db, storage },
      { fileName: "l.jpg", data: await jpeg(300, 100), uploadedBy: null },
    );
    await publish({ en: "Branded", zh: "品牌" });
    await sync();
    expect(drawn.map((c) => [c.accent, c.logo])).toEqual([
      ["#1d4ed8", null],
      ["#1d4ed8", null],
    ]);
    drawn = [];
    await updateSiteSettings(database.db, {
      brand: { accent: "#be123c", logo: logo.url, logoWidth: 300, logoHeight: 100, icon: "" },
    });
    expect(await sync()).toMatchObject({ made: 2 });
    expect(drawn.map((c) => c.accent)).toEqual(["#be123c", "#be123c"]);
    expect(drawn.every((c) => c.logo !== null)).toBe(true);
  });

  it("removes the cards and files of a post that is no longer live", async () => {
    const postId = await publish({ en: "Here today", zh: "今天在" });
    await sync();
    expect(await allKeys(storage)).toHaveLength(2);
    await withPostLifecycle(database.db, SYSTEM, (life) => life.setStatus(postId, "draft"));
    expect(await sync()).toMatchObject({ made: 0, removed: 2, changed: [postId] });
    expect(await findSocialCard(database.db, postId, "en")).toBeNull();
    expect(await allKeys(storage)).toEqual([]);
  });

  it("draws at most a batch per run and says how many are left", async () => {
    for (let i = 0; i < 3; i++) await publish({ en: `Post ${i}`, zh: `文章 ${i}` });
    const first = await syncSocialCards({ db: database.db, storage, render: renderCard }, 4);
    expect(first).toMatchObject({ made: 4, remaining: 2 });
    const second = await syncSocialCards({ db: database.db, storage, render: renderCard }, 4);
    expect(second).toMatchObject({ made: 2, remaining: 0 });
    expect((await allKeys(storage)).filter((k) => k.endsWith(`/${CARD_FILE}`))).toHaveLength(6);
  });
});
