import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { collectGarbage, storeUpload } from "../media/media.server.ts";
import { createLocalStorage } from "../storage/local.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { ICON_SIZES, iconUrl, makeIcons } from "./icons.server.ts";

describe(`the site icon's sizes (${testDialect()})`, () => {
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
    root = mkdtempSync(path.join(tmpdir(), "inkwell-icons-"));
    storage = createLocalStorage(root);
    await database.db.deleteFrom("media").execute();
    return () => rmSync(root, { recursive: true, force: true });
  });

  it("makes square PNGs of every size from one upload, kept in the upload's folder", async () => {
    const upload = await storeUpload(
      { db: database.db, storage },
      { fileName: "icon.png", data: await png(700, 500), uploadedBy: null },
    );
    expect(await makeIcons(database.db, storage, upload.url)).toBe(true);
    for (const [file, size] of Object.entries(ICON_SIZES)) {
      const key = iconUrl(upload.url, file as keyof typeof ICON_SIZES).replace(/^\/media\//, "");
      const object = await storage.get(key);
      expect(object.contentType).toBe("image/png");
      expect(await sharp(await buffer(object.body)).metadata()).toMatchObject({
        width: size,
        height: size,
        format: "png",
      });
    }
    const gc = await collectGarbage({ db: database.db, storage }, { remove: false, now: Date.now() + 10 * 3600_000 });
    expect(gc.orphans).toEqual([]);
  });

  it("answers false for an address that is no upload", async () => {
    expect(await makeIcons(database.db, storage, "/media/abcdefghjkmnpqrstvwx/image.png")).toBe(false);
    expect(await makeIcons(database.db, storage, "/social.jpg")).toBe(false);
  });
});
