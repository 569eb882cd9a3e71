import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jpeg, png } from "../../../tests/fixtures/images.ts";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { createAd } from "../site/ads.server.ts";
import { createLocalStorage } from "../storage/local.server.ts";
import { type StorageDriver, StorageError } from "../storage/types.server.ts";
import {
  collectGarbage,
  deleteMedia,
  findMediaUsages,
  findUsagesForMany,
  GC_MIN_AGE_MS,
  listMedia,
  mediaImages,
  storeUpload,
  UploadRejected,
} from "./media.server.ts";

async function allKeys(storage: StorageDriver): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list()) keys.push(key);
  return keys.sort();
}

describe(`media records and files (${testDialect()})`, () => {
  let database: TestDatabase;
  let root: string;
  let storage: StorageDriver;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.cleanup();
  });
  beforeEach(async () => {
    root = mkdtempSync(path.join(tmpdir(), "inkwell-media-"));
    storage = createLocalStorage(root);
    for (const table of ["media", "links", "ads", "swapers", "postTranslations", "posts", "siteSettings"] as const) {
      await database.db.deleteFrom(table).execute();
    }
    return () => rmSync(root, { recursive: true, force: true });
  });

  const deps = () => ({ db: database.db, storage });

  it("stores the variants and the main file, then one row that lists them", async () => {
    const media = await storeUpload(deps(), { fileName: "pic.jpg", data: await jpeg(700, 350), uploadedBy: null });
    expect(await allKeys(storage)).toEqual(
      [`${media.id}/320.webp`, `${media.id}/640.webp`, `${media.id}/700.webp`, `${media.id}/image.jpg`].sort(),
    );
    expect(media.variants.map((v) => v.file)).toEqual(["320.webp", "640.webp", "700.webp"]);
    expect(media.customMetadata).toEqual({ sourceWidth: "700" });
    const images = await mediaImages(database.db, [media.id, "00000000000000000000"]);
    expect([...images.keys()]).toEqual([media.id]);
    expect(images.get(media.id)).toMatchObject({ src: `/media/${media.id}/image.jpg`, width: 700, height: 350 });
  });

  it("looks up no image for the empty id a post without a cover passes", async () => {
    const refuses = {
      selectFrom: () => {
        throw new Error("queried the media table");
      },
    } as unknown as typeof database.db;
    expect(await mediaImages(refuses, ["", ""])).toEqual(new Map());
  });

  it("stores nothing for a refused file", async () => {
    const error = await storeUpload(deps(), { fileName: "x.png", data: Buffer.from("nope"), uploadedBy: null }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UploadRejected);
    expect(await allKeys(storage)).toEqual([]);
    expect(await database.db.selectFrom("media").selectAll().execute()).toEqual([]);
  });

  it("removes the files already written when a later write fails, and records nothing", async () => {
    let puts = 0;
    const failing: StorageDriver = {
      ...storage,
      put: async (key, data, options) => {
        puts += 1;
        if (puts === 3) throw new StorageError("quota-exceeded", "disk full");
        return storage.put(key, data, options);
      },
    };
    const error = await storeUpload(
      { db: database.db, storage: failing },
      { fileName: "pic.png", data: await png(1200, 600), uploadedBy: null },
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "quota-exceeded" });
    expect(puts).toBe(3);
    expect(await allKeys(storage)).toEqual([]);
    expect(await database.db.selectFrom("media").selectAll().execute()).toEqual([]);
  });

  it("finds every place an image is used, for one image or a whole page in one go", async () => {
    const a = await storeUpload(deps(), { fileName: "a.png", data: await png(40, 40), uploadedBy: null });
    const b = await storeUpload(deps(), { fileName: "b.png", data: await png(40, 40), uploadedBy: null });
    const unused = await storeUpload(deps(), { fileName: "c.png", data: await png(40, 40), uploadedBy: null });
    const now = nowIso();
    const postId = await createPost(database.db, {
      slug: "uses-images",
      authorId: null,
      status: "draft",
      publishedAt: null,
      coverImageUrl: a.url,
      translations: [
        { locale: "en", title: "Pictures", bodyMarkdown: `Look: ![b](/media/${b.id}/640.webp)` },
        { locale: "zh", title: "图片", bodyMarkdown: `看：![b](/media/${b.id}/image.png)` },
      ],
    });
    await database.db
      .insertInto("links")
      .values({
        id: "link1",
        name: "Friend",
        url: "https://f.example/",
        logoUrl: a.url,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await database.db
      .insertInto("siteSettings")
      .values({ key: "socialImage", value: JSON.stringify(b.url), createdAt: now, updatedAt: now })
      .execute();
    // An image ad whose Chinese version has its own image.
    const adId = await createAd(database.db, {
      placement: "home_top",
      kind: "image",
      titleEn: "Pens",
      imageUrlEn: "/pens.png",
      titleZh: "笔",
      imageUrlZh: b.url,
      linkUrl: "https://pens.example/",
    });
    const avatarOwner = await insertUser(database.db, { email: "avatar@example.test", name: "Ada" });
    await database.db.updateTable("users").set({ image: a.url }).where("id", "=", avatarOwner).execute();

    const usages = await findUsagesForMany(database.db, [a.id, b.id, unused.id]);
    expect(usages.get(a.id)).toEqual([
      { kind: "post", id: postId, title: expect.any(String) },
      { kind: "link", id: "link1", title: "Friend" },
      { kind: "avatar", id: avatarOwner, title: "Ada" },
    ]);
    expect(usages.get(b.id)?.map((u) => u.kind)).toEqual(["post", "ad", "settings"]);
    expect(usages.get(b.id)?.[1]).toEqual({ kind: "ad", id: adId, title: "Pens" });
    expect(usages.get(unused.id)).toEqual([]);
    expect(await findMediaUsages(database.db, b.id)).toHaveLength(3);

    // In use: refused, nothing removed. Unused: the row and every file go.
    const refused = await deleteMedia(deps(), a.id);
    expect(refused).toMatchObject({ ok: false, reason: "inUse" });
    expect((await allKeys(storage)).filter((k) => k.startsWith(a.id))).toHaveLength(2);
    expect(await deleteMedia(deps(), unused.id)).toEqual({ ok: true });
    expect((await allKeys(storage)).filter((k) => k.startsWith(unused.id))).toEqual([]);
    expect(await deleteMedia(deps(), unused.id)).toEqual({ ok: false, reason: "notFound" });
  });

  it("lists with search, sorting and pages", async () => {
    for (const name of ["Beach.png", "mountain.png", "beach-2.png"]) {
      await storeUpload(deps(), { fileName: name, data: await png(20, 20), uploadedBy: null });
    }
    const beach = await listMedia(database.db, { q: "BEACH", page: 1, pageSize: 10, sort: "name" });
    expect(beach.items.map((m) => m.originalName)).toEqual(["beach-2.png", "Beach.png"]);
    const paged = await listMedia(database.db, { page: 2, pageSize: 2, sort: "name" });
    expect(paged).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(paged.items.map((m) => m.originalName)).toEqual(["mountain.png"]);
    // An unknown sort falls back to newest first; % and _ match themselves.
    expect((await listMedia(database.db, { q: "%", page: 1, pageSize: 10, sort: "drop table" })).total).toBe(0);
  });

  it("collects only old files that no record owns, and only when asked", async () => {
    const kept = await storeUpload(deps(), { fileName: "kept.png", data: await png(20, 20), uploadedBy: null });
    await storage.put("zzzzzzzzzzzzzzzzzzzz/image.png", await png(10, 10), {
      contentType: "image/png",
      cacheControl: "no-cache",
    });
    const now = Date.now();
    // A fresh orphan may be an upload still recording its row: left alone.
    expect((await collectGarbage(deps(), { remove: true, now })).orphans).toEqual([]);
    const later = now + GC_MIN_AGE_MS + 1000;
    const dry = await collectGarbage(deps(), { remove: false, now: later });
    expect(dry).toEqual({ orphans: ["zzzzzzzzzzzzzzzzzzzz/image.png"], removed: 0 });
    expect(await storage.head("zzzzzzzzzzzzzzzzzzzz/image.png")).not.toBeNull();
    const wet = await collectGarbage(deps(), { remove: true, now: later });
    expect(wet.removed).toBe(1);
    expect(await allKeys(storage)).toEqual((await allKeys(storage)).filter((k) => k.startsWith(kept.id)));
    expect(await storage.head("zzzzzzzzzzzzzzzzzzzz/image.png")).toBeNull();
  });
});
