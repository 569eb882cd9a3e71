import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import {
  copyrightLine,
  DEFAULT_SETTINGS,
  getSiteSettings,
  InvalidSettingError,
  updateSiteSettings,
} from "./site-settings.server.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("site settings", () => {
  it("start from the defaults", async () => {
    expect(await getSiteSettings(database.db)).toEqual(DEFAULT_SETTINGS);
  });

  it("store changes over the defaults", async () => {
    await updateSiteSettings(database.db, {
      siteName: { en: "My blog", zh: "我的博客" },
      socialLinks: { github: "https://github.com/me", x: "", weibo: "", zhihu: "" },
      postsPerPage: 5,
    });
    const settings = await getSiteSettings(database.db);
    expect(settings.siteName).toEqual({ en: "My blog", zh: "我的博客" });
    expect(settings.socialLinks.github).toBe("https://github.com/me");
    expect(settings.postsPerPage).toBe(5);
    expect(settings.pages).toEqual(DEFAULT_SETTINGS.pages);
  });

  it("refuse invalid values and write none of a batch that has one", async () => {
    const before = await getSiteSettings(database.db);
    await expect(
      updateSiteSettings(database.db, {
        postsPerPage: 20,
        socialLinks: { github: "javascript:alert(1)", x: "", weibo: "", zhihu: "" },
      }),
    ).rejects.toBeInstanceOf(InvalidSettingError);
    await expect(updateSiteSettings(database.db, { postsPerPage: 0 })).rejects.toThrow(/postsPerPage/);
    expect(await getSiteSettings(database.db)).toEqual(before);
  });

  it("ignore a stored value that is not valid any more", async () => {
    const now = new Date().toISOString();
    await sql`insert into "siteSettings" ("key", "value", "createdAt", "updatedAt") values ('aboutText', 'not json', ${now}, ${now})`.execute(
      database.db,
    );
    expect((await getSiteSettings(database.db)).aboutText).toEqual(DEFAULT_SETTINGS.aboutText);
  });

  it("build the copyright line", () => {
    expect(copyrightLine(DEFAULT_SETTINGS, "zh", 2026)).toBe("© 2026 墨水博客");
    expect(copyrightLine({ ...DEFAULT_SETTINGS, copyright: { en: "CC BY 4.0", zh: "" } }, "en", 2026)).toBe(
      "CC BY 4.0",
    );
  });
});
