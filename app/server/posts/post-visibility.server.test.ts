import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { canView, wherePublic } from "./post-visibility.server.ts";
import { createPost } from "./posts.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

describe(`post visibility (${testDialect()})`, () => {
  it("lets queries see exactly the posts canView shows to everyone", async () => {
    const { db } = database;
    const make = (slug: string, status: "draft" | "published" | "scheduled") =>
      createPost(db, {
        slug,
        authorId: null,
        status,
        publishedAt: "2026-11-01T00:00:00.000Z",
        translations: [{ locale: "en", title: slug, bodyHtml: "<p>x</p>" }],
      });
    const open = await make("open", "published");
    await make("draft", "draft");
    await make("later", "scheduled");
    const trashed = await make("trashed", "published");
    await db.updateTable("posts").set({ deletedAt: "2026-11-02T00:00:00.000Z" }).where("id", "=", trashed).execute();

    const plain = await db.selectFrom("posts").select("id").where(wherePublic()).execute();
    const aliased = await db.selectFrom("posts as p").select("p.id").where(wherePublic("p")).execute();
    expect(plain.map((r) => r.id)).toEqual([open]);
    expect(aliased.map((r) => r.id)).toEqual([open]);

    const rows = await db.selectFrom("posts").select(["id", "status", "deletedAt", "authorId"]).execute();
    expect(rows.filter((r) => canView(r, null)).map((r) => r.id)).toEqual([open]);
  });
});
