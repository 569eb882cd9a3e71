import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import {
  copyrightLine,
  DEFAULT_SETTINGS,
  getSharedSiteSettings,
  getSiteSetting,
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

  it("read one setting alone: the stored value, else the default; a stored value that no longer fits is ignored", async () => {
    expect(await getSiteSetting(database.db, "fediverse")).toEqual(DEFAULT_SETTINGS.fediverse);
    await updateSiteSettings(database.db, { fediverse: { enabled: true, handles: { en: "notes", zh: "biji" } } });
    expect(await getSiteSetting(database.db, "fediverse")).toEqual({
      enabled: true,
      handles: { en: "notes", zh: "biji" },
    });
    await database.db
      .updateTable("siteSettings")
      .set({ value: JSON.stringify({ enabled: true, handles: { en: "no spaces allowed", zh: "x" } }) })
      .where("key", "=", "fediverse")
      .execute();
    expect(await getSiteSetting(database.db, "fediverse")).toEqual(DEFAULT_SETTINGS.fediverse);
    await database.db.deleteFrom("siteSettings").where("key", "=", "fediverse").execute();
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
    expect(settings.copyright).toEqual(DEFAULT_SETTINGS.copyright);
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

  it("hold comments for review only when told to", async () => {
    expect(DEFAULT_SETTINGS.commentModeration).toBe("auto");
    await updateSiteSettings(database.db, { commentModeration: "hold" });
    expect((await getSiteSettings(database.db)).commentModeration).toBe("hold");
    await expect(
      updateSiteSettings(database.db, { commentModeration: "never" as unknown as "hold" }),
    ).rejects.toBeInstanceOf(InvalidSettingError);
    await updateSiteSettings(database.db, { commentModeration: "auto" });
  });

  it("show friend links in the footer only when turned on", async () => {
    expect(DEFAULT_SETTINGS.footerLinks).toBe(false);
    expect((await getSiteSettings(database.db)).footerLinks).toBe(false);
    await updateSiteSettings(database.db, { footerLinks: true });
    expect((await getSiteSettings(database.db)).footerLinks).toBe(true);
    await expect(updateSiteSettings(database.db, { footerLinks: "yes" as unknown as boolean })).rejects.toBeInstanceOf(
      InvalidSettingError,
    );
    await updateSiteSettings(database.db, { footerLinks: false });
  });

  it("store the registration switch, social image and password policy override", async () => {
    expect(DEFAULT_SETTINGS).toMatchObject({
      registrationOpen: true,
      socialImage: "/social.jpg",
      passwordPolicy: null,
    });
    await updateSiteSettings(database.db, {
      registrationOpen: false,
      socialImage: "https://cdn.example.test/og.png",
      passwordPolicy: { minLength: 10, requiredClasses: ["digit"] },
    });
    expect(await getSiteSettings(database.db)).toMatchObject({
      registrationOpen: false,
      socialImage: "https://cdn.example.test/og.png",
      passwordPolicy: { minLength: 10, requiredClasses: ["digit"] },
    });
    await expect(updateSiteSettings(database.db, { socialImage: "javascript:alert(1)" })).rejects.toThrow(
      /socialImage/,
    );
    await expect(updateSiteSettings(database.db, { socialImage: "//evil.example/x.png" })).rejects.toThrow(
      /socialImage/,
    );
    await expect(
      updateSiteSettings(database.db, { passwordPolicy: { minLength: 5, requiredClasses: [] } }),
    ).rejects.toThrow(/passwordPolicy/);
    await updateSiteSettings(database.db, { registrationOpen: true, socialImage: "/social.jpg", passwordPolicy: null });
    expect((await getSiteSettings(database.db)).passwordPolicy).toBeNull();
  });

  it("store the home cover: an upload of this site or none, with a short description per language", async () => {
    expect(DEFAULT_SETTINGS.homeCover).toEqual({ src: "", alt: { en: "", zh: "" } });
    const homeCover = { src: "/media/abcdefghij0123456789/image.jpg", alt: { en: "Tea fields", zh: "茶园" } };
    await updateSiteSettings(database.db, { homeCover });
    expect((await getSiteSettings(database.db)).homeCover).toEqual(homeCover);
    for (const bad of [
      { src: "https://cdn.example.test/cover.jpg", alt: { en: "", zh: "" } },
      { src: "", alt: { en: "a".repeat(201), zh: "" } },
    ])
      await expect(updateSiteSettings(database.db, { homeCover: bad })).rejects.toThrow(/homeCover/);
    expect((await getSiteSettings(database.db)).homeCover).toEqual(homeCover);
    await updateSiteSettings(database.db, { homeCover: DEFAULT_SETTINGS.homeCover });
  });

  it("write inside the caller's transaction, so a failure after it undoes the change", async () => {
    const before = await getSiteSettings(database.db);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await updateSiteSettings(trx, { postsPerPage: 33 });
        expect((await getSiteSettings(trx)).postsPerPage).toBe(33);
        throw new Error("audit failed");
      }),
    ).rejects.toThrow("audit failed");
    expect((await getSiteSettings(database.db)).postsPerPage).toBe(before.postsPerPage);
    await database.db.transaction().execute((trx) => updateSiteSettings(trx, { postsPerPage: 34 }));
    expect((await getSiteSettings(database.db)).postsPerPage).toBe(34);
  });

  it("build the copyright line", () => {
    expect(copyrightLine(DEFAULT_SETTINGS, "zh", 2026)).toBe("© 2026 墨水博客");
    expect(copyrightLine({ ...DEFAULT_SETTINGS, copyright: { en: "CC BY 4.0", zh: "" } }, "en", 2026)).toBe(
      "CC BY 4.0",
    );
  });
});

describe("shared site settings (what pages render with)", () => {
  it("are parsed once while the stored rows stay the same, and again as soon as any changes", async () => {
    const first = await getSharedSiteSettings(database.db);
    expect(first).toEqual(await getSiteSettings(database.db));
    expect(await getSharedSiteSettings(database.db)).toBe(first);

    await updateSiteSettings(database.db, { postsPerPage: first.postsPerPage + 1 });
    const second = await getSharedSiteSettings(database.db);
    expect(second).not.toBe(first);
    expect(second.postsPerPage).toBe(first.postsPerPage + 1);

    // A row written around the app (another process, a restore) shows too.
    await database.db.deleteFrom("siteSettings").where("key", "=", "postsPerPage").execute();
    expect((await getSharedSiteSettings(database.db)).postsPerPage).toBe(DEFAULT_SETTINGS.postsPerPage);
  });

  it("are frozen all the way down, so no request can change another's", async () => {
    const settings = await getSharedSiteSettings(database.db);
    expect(Object.isFrozen(settings)).toBe(true);
    expect(Object.isFrozen(settings.siteName)).toBe(true);
    expect(() => {
      (settings.siteName as { en: string }).en = "changed";
    }).toThrow(TypeError);
  });
});
