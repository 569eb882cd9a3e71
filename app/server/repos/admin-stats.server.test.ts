import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { adminCounts } from "./admin-stats.server.ts";
import { audit, latestAudit } from "./audit.server.ts";
import { createPost } from "./posts.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("adminCounts", () => {
  it("counts posts by status with the trash apart, pending comments, users and subscribers", async () => {
    const { db } = database;
    expect(await adminCounts(db)).toEqual({
      posts: { published: 0, draft: 0, scheduled: 0, trash: 0 },
      pendingComments: 0,
      users: 0,
      subscribers: { confirmed: 0, pending: 0 },
    });
    const post = (status: "draft" | "published" | "scheduled", slug: string) =>
      createPost(db, {
        slug,
        authorId: null,
        status,
        publishedAt: null,
        translations: [{ locale: "en", title: slug }],
      });
    const p1 = await post("published", "a");
    await post("published", "b");
    await post("draft", "c");
    await post("scheduled", "d");
    const trashed = await post("published", "e");
    await db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashed).execute();
    const now = nowIso();
    await db
      .insertInto("comments")
      .values([
        {
          id: "c1",
          postId: p1,
          authorId: null,
          parentId: null,
          bodyMarkdown: "x",
          bodyHtml: "x",
          status: "pending",
          createdAt: now,
          updatedAt: now,
        },
        {
          id: "c2",
          postId: p1,
          authorId: null,
          parentId: null,
          bodyMarkdown: "y",
          bodyHtml: "y",
          status: "approved",
          createdAt: now,
          updatedAt: now,
        },
      ])
      .execute();
    expect(await adminCounts(db)).toMatchObject({
      posts: { published: 2, draft: 1, scheduled: 1, trash: 1 },
      pendingComments: 1,
    });
  });
});

describe("audit log", () => {
  it("keeps who did what, newest first", async () => {
    const { db } = database;
    const actor = { id: "u1", email: "admin@example.test" };
    await audit(db, actor, "swaper.create", { type: "swaper", id: "s1" }, { title: "One" });
    await new Promise((r) => setTimeout(r, 5));
    await audit(db, actor, "swaper.delete", { type: "swaper", id: "s1" });
    const entries = await latestAudit(db, 10);
    expect(entries.map((e) => e.action)).toEqual(["swaper.delete", "swaper.create"]);
    expect(entries[1]).toMatchObject({ actorEmail: "admin@example.test", entityId: "s1", details: { title: "One" } });
  });
});
