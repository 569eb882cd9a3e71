import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addAdmins } from "../accounts/admins.server.ts";
import { submitComment } from "../comments/comments.server.ts";
import { createMailer } from "../mail/message.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { type ModerationNotice, updateSiteSettings } from "../site/site-settings.server.ts";
import { commentMail } from "./comment-mail.server.ts";
import {
  DIGEST_LIST_LIMIT,
  digestKey,
  moderationKey,
  queueModerationDigest,
  startModerationDigest,
} from "./moderation.server.ts";
import type { NoticeDeps } from "./notices.server.ts";

// Moderation notices on a real database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): one mail per admin per held comment ("each"), or the daily
// digest job ("daily"), or nothing ("off").

const BASE = "https://blog.test";
const MORNING = new Date("2026-11-26T09:30:00.000Z");

let database: TestDatabase;
let deps: NoticeDeps;
let reader: string;
let adminEn: string;
let adminZh: string;
let postId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  deps = {
    mailer: createMailer(database.db, { target: "test", onQueued() {} }),
    publicUrl: BASE,
    secret: "s".repeat(40),
  };
  reader = await insertUser(database.db, { email: "reader@example.test", name: "Reader" });
  adminEn = await insertUser(database.db, { email: "Admin.En@example.test", name: "Ann" });
  adminZh = await insertUser(database.db, { email: "admin.zh@example.test", name: "Zhang" });
  await database.db.updateTable("users").set({ locale: "en" }).where("id", "=", adminEn).execute();
  // Listed but not verified: not an admin in effect, gets nothing.
  await insertUser(database.db, { email: "unverified@example.test", emailVerified: false });
  await addAdmins(database.db, ["admin.en@example.test", "admin.zh@example.test", "unverified@example.test"], "cli");
  postId = await createPost(database.db, {
    slug: "held-post",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [
      { locale: "en", title: "Held" },
      { locale: "zh", title: "等待" },
    ],
  });
});

afterAll(async () => {
  await database.cleanup();
});

beforeEach(async () => {
  await database.db.deleteFrom("mailOutbox").execute();
  await database.db.deleteFrom("comments").execute();
});

async function comment(body: string, notice: ModerationNotice, moderation: "auto" | "hold" = "hold") {
  const result = await submitComment(
    database.db,
    { postId, authorId: reader, body, moderation },
    undefined,
    commentMail(deps, notice),
  );
  if (!result.ok || !result.id) throw new Error("not stored");
  return result.id;
}

const outbox = () =>
  database.db.selectFrom("mailOutbox").select(["key", "kind", "recipient", "subject", "text"]).orderBy("key").execute();

describe("moderationNotice: each", () => {
  it("mails every admin in effect once per held comment, in their language, linking to the queue", async () => {
    const id = await comment("Please approve me", "each");
    const mails = await outbox();
    expect(mails.map((m) => [m.key, m.recipient]).sort()).toEqual(
      [
        [moderationKey(id, adminEn), "Admin.En@example.test"],
        [moderationKey(id, adminZh), "admin.zh@example.test"],
      ].sort(),
    );
    const en = mails.find((m) => m.recipient === "Admin.En@example.test");
    expect(en?.subject).toBe("A comment on “Held” is waiting for moderation");
    expect(en?.text).toContain("Reader commented on “Held”");
    expect(en?.text).toContain("Please approve me");
    expect(en?.text).toContain(`${BASE}/admin/comments?status=pending`);
    expect(mails.find((m) => m.recipient === "admin.zh@example.test")?.subject).toBe("《等待》下有一条评论等待审核");
  });

  it("sends nothing for a comment published at once, or when the setting is daily or off", async () => {
    await comment("Straight out", "each", "auto");
    await comment("Wait for the digest", "daily");
    await comment("Nobody is told", "off");
    expect(await outbox()).toEqual([]);
  });
});

describe("moderationNotice: daily", () => {
  it("queues one digest per admin per day, from 08:00 UTC, and only while something waits", async () => {
    expect(await queueModerationDigest(database.db, deps, MORNING)).toBe(0);
    expect(await outbox()).toEqual([]);

    await comment("First waiting", "daily");
    await comment("Second waiting", "daily");
    expect(await queueModerationDigest(database.db, deps, new Date("2026-11-26T07:59:00.000Z"))).toBe(0);
    expect(await queueModerationDigest(database.db, deps, MORNING)).toBe(2);
    const mails = await outbox();
    expect(mails.map((m) => m.key).sort()).toEqual(
      [digestKey("2026-11-26", adminEn), digestKey("2026-11-26", adminZh)].sort(),
    );
    const en = mails.find((m) => m.recipient === "Admin.En@example.test");
    expect(en?.subject).toBe("2 comments are waiting for moderation");
    expect(en?.text).toContain("- Reader on “Held”: First waiting\n- Reader on “Held”: Second waiting");
    expect(mails.find((m) => m.recipient === "admin.zh@example.test")?.subject).toBe("有 2 条评论等待审核");

    // Later the same day, another run (or instance) adds nothing; the next day, one more each.
    await comment("Third waiting", "daily");
    expect(await queueModerationDigest(database.db, deps, new Date("2026-11-26T23:59:00.000Z"))).toBe(0);
    expect(await outbox()).toHaveLength(2);
    expect(await queueModerationDigest(database.db, deps, new Date("2026-11-27T08:00:00.000Z"))).toBe(2);
    expect(await outbox()).toHaveLength(4);
  });

  it("lists at most DIGEST_LIST_LIMIT comments and says how many more wait", async () => {
    for (let i = 0; i < DIGEST_LIST_LIMIT + 3; i += 1) await comment(`Waiting ${i}`, "off");
    await queueModerationDigest(database.db, deps, MORNING);
    const en = (await outbox()).find((m) => m.recipient === "Admin.En@example.test");
    expect(en?.subject).toBe(`${DIGEST_LIST_LIMIT + 3} comments are waiting for moderation`);
    expect(en?.text.match(/^- Reader/gm)).toHaveLength(DIGEST_LIST_LIMIT);
    expect(en?.text).toContain("… and 3 more.");
  });

  it("runs as a leased job only while the setting says daily", async () => {
    await comment("Waiting for the job", "off");
    const run = async () => {
      const job = startModerationDigest(database.db, deps, pino({ level: "silent" }), {
        intervalMs: 60_000,
        holder: "test",
        now: () => MORNING,
      });
      await job.idle();
      await job.stop();
    };
    await updateSiteSettings(database.db, { moderationNotice: "each" });
    await run();
    expect(await outbox()).toEqual([]);
    await updateSiteSettings(database.db, { moderationNotice: "daily" });
    await run();
    await run();
    expect((await outbox()).map((m) => m.kind)).toEqual(["moderation-digest", "moderation-digest"]);
  });
});
