import { readdirSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { migrateDown, migrateToLatest, migrationStatus } from "../../app/server/db/migrate.server.ts";
import { createTestDatabase, type TestDatabase } from "../../tests/setup/test-db.ts";
import { migrations } from "./index.ts";

const dir = import.meta.dirname;

describe("migration history", () => {
  it("lists every migration file in the folder, in name order", () => {
    const files = readdirSync(dir)
      .filter((f) => /^\d{8}T\d{6}_[a-z0-9_]+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(Object.keys(migrations)).toEqual(files);
    expect(files.length).toBeGreaterThan(0);
  });

  it("names files with a timestamp and a snake_case title only", () => {
    const stray = readdirSync(dir).filter(
      (f) => f !== "index.ts" && !f.endsWith(".test.ts") && !/^\d{8}T\d{6}_[a-z0-9_]+\.ts$/.test(f),
    );
    expect(stray).toEqual([]);
  });

  it("never imports application code", async () => {
    const { readFileSync } = await import("node:fs");
    for (const name of Object.keys(migrations)) {
      const source = readFileSync(path.join(dir, `${name}.ts`), "utf8");
      const imports = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]);
      expect(
        imports.every((i) => i === "kysely"),
        `${name} imports ${imports.join(", ")}`,
      ).toBe(true);
    }
  });
});

describe("migrating", () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.cleanup();
    database = undefined;
  });

  it("applies everything on a fresh database, and a second run is a no-op", async () => {
    database = await createTestDatabase({ migrate: false });
    const first = await migrateToLatest(database.db);
    expect(first).toEqual(Object.keys(migrations));
    const second = await migrateToLatest(database.db);
    expect(second).toEqual([]);
    const status = await migrationStatus(database.db);
    expect(status.pending).toEqual([]);
    expect(status.applied).toEqual(Object.keys(migrations));
  });

  it("rolls back and re-applies cleanly", async () => {
    database = await createTestDatabase();
    const names = Object.keys(migrations);
    for (let i = 0; i < names.length; i++) await migrateDown(database.db);
    expect((await migrationStatus(database.db)).applied).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual(names);
  });

  it("gives each existing ad its one content as both its English and its Chinese version", async () => {
    database = await createTestDatabase();
    const before = "20261126T201500_add_ad_translations";
    while ((await migrationStatus(database.db)).applied.includes(before)) await migrateDown(database.db);
    const now = new Date().toISOString();
    await sql`insert into "ads" ("id", "placement", "kind", "title", "text", "imageUrl", "imageAlt", "linkUrl", "createdAt", "updatedAt")
      values ('ad1', 'home_top', 'image', '墨水', 'Good ink', '/ink.png', 'A bottle', 'https://ink.example/', ${now}, ${now})`.execute(
      database.db,
    );
    await migrateToLatest(database.db);
    const row = await database.db
      .selectFrom("ads")
      .select(["title", "text", "imageUrl", "imageAlt", "titleZh", "textZh", "imageUrlZh", "imageAltZh"])
      .where("id", "=", "ad1")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      title: "墨水",
      text: "Good ink",
      imageUrl: "/ink.png",
      imageAlt: "A bottle",
      titleZh: "墨水",
      textZh: "Good ink",
      imageUrlZh: "/ink.png",
      imageAltZh: "A bottle",
    });
  });

  it("enforces the post status and locale checks in the database", async () => {
    database = await createTestDatabase();
    const now = new Date().toISOString();
    await expect(
      sql`insert into "posts" ("id", "slug", "status", "createdAt", "updatedAt") values ('p1', 's1', 'bogus', ${now}, ${now})`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await sql`insert into "posts" ("id", "slug", "status", "createdAt", "updatedAt") values ('p1', 's1', 'draft', ${now}, ${now})`.execute(
      database.db,
    );
    await expect(
      sql`insert into "postTranslations" ("postId", "locale", "title", "createdAt", "updatedAt") values ('p1', 'fr', 't', ${now}, ${now})`.execute(
        database.db,
      ),
    ).rejects.toThrow();
    await expect(
      sql`insert into "postTranslations" ("postId", "locale", "title", "createdAt", "updatedAt") values ('nope', 'en', 't', ${now}, ${now})`.execute(
        database.db,
      ),
    ).rejects.toThrow();
  });
});
