import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { nowIso } from "../db/db.server.ts";
import { failedDeliveryCount } from "../federation/deliveries.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { adminCounts, lastDaysFigures } from "./admin-stats.server.ts";
import { audit, latestAudit } from "./audit.server.ts";

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

describe("lastDaysFigures", () => {
  it("sums the reads of the last seven days and counts the readers who confirmed in them", async () => {
    const { db } = database;
    const now = new Date("2026-11-28T12:00:00.000Z");
    // 2026-11-22 is the first of the seven days that end on 2026-11-28; 2026-11-21 is outside.
    await db
      .insertInto("insightCounts")
      .values([
        { day: "2026-11-21", metric: "views", key: "", count: 100 },
        { day: "2026-11-22", metric: "views", key: "", count: 5 },
        { day: "2026-11-28", metric: "views", key: "", count: 7 },
        { day: "2026-11-28", metric: "visitors", key: "", count: 3 },
        { day: "2026-11-28", metric: "post", key: "p1", count: 7 },
      ])
      .execute();
    const subscriber = async (id: string, status: "confirmed" | "pending", confirmedAt: string | null) =>
      db
        .insertInto("subscribers")
        .values({
          id,
          email: `${id}@example.test`,
          locale: "en",
          status,
          confirmTokenHash: id,
          unsubscribeTokenHash: `u${id}`,
          confirmedAt,
          unsubscribedAt: null,
          createdAt: "2026-11-01T00:00:00.000Z",
          updatedAt: "2026-11-01T00:00:00.000Z",
        })
        .execute();
    await subscriber("s-new", "confirmed", "2026-11-22T00:00:00.000Z");
    await subscriber("s-today", "confirmed", "2026-11-28T11:00:00.000Z");
    await subscriber("s-old", "confirmed", "2026-11-21T23:59:59.000Z");
    await subscriber("s-pending", "pending", null);
    expect(await lastDaysFigures(db, { days: 7, now })).toEqual({
      days: 7,
      views: 12,
      visitors: 3,
      newSubscribers: 2,
    });
  });
});

describe("failedDeliveryCount", () => {
  it("counts the delivery log's failures, as its failures filter lists them", async () => {
    const { db } = database;
    expect(await failedDeliveryCount(db)).toBe(0);
    const outcomes = ["sent", "retrying", "gave-up", "skipped", "sent"] as const;
    await db
      .insertInto("federationDeliveries")
      .values(
        outcomes.map((outcome, i) => ({
          id: `d${i}`,
          createdAt: nowIso(),
          server: "remote.example",
          inbox: "https://remote.example/inbox",
          activityId: null,
          activityType: "Create",
          outcome,
          attempt: 0,
          status: null,
          error: null,
        })),
      )
      .execute();
    expect(await failedDeliveryCount(db)).toBe(3);
  });
});
