import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { callRoute, testRouterContext } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { action as moderateAction } from "../../routes/admin/comments.tsx";
import { action as stopAction, loader as stopLoader } from "../../routes/notify/stop-replies.tsx";
import { addAdmins } from "../accounts/admins.server.ts";
import type { Services } from "../boot/context.server.ts";
import { type SubmitCommentInput, submitComment } from "../comments/comments.server.ts";
import { createMailer } from "../mail/message.server.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { commentMail } from "./comment-mail.server.ts";
import type { NoticeDeps } from "./notices.server.ts";
import { replyNotificationsOn, setReplyNotifications } from "./notification-prefs.server.ts";
import { replyKey } from "./replies.server.ts";
import { replyStopToken } from "./stop-token.server.ts";

// Reply notifications on a real database (SQLite, or PostgreSQL with
// TEST_DATABASE_URL): what is queued in the outbox when a reply becomes visible,
// to whom, in which language, and the stop link that turns them off.

const BASE = "https://blog.test";
const SECRET = "s".repeat(40);
const ADMIN = { email: "admin@example.test" };

let database: TestDatabase;
let deps: NoticeDeps;
let alice: string;
let bob: string;
let adminId: string;
let postId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  deps = { mailer: createMailer(database.db, { target: "test", onQueued() {} }), publicUrl: BASE, secret: SECRET };
  alice = await insertUser(database.db, { email: "alice@example.test", name: "Alice" });
  bob = await insertUser(database.db, { email: "bob@example.test", name: "Bob" });
  adminId = await insertUser(database.db, { email: ADMIN.email, name: "Admin" });
  await addAdmins(database.db, [ADMIN.email], "cli");
  postId = await createPost(database.db, {
    slug: "reply-post",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [
      { locale: "en", title: "Tea & Time" },
      { locale: "zh", title: "茶与时间" },
    ],
  });
});

afterAll(async () => {
  await database.cleanup();
});

beforeEach(async () => {
  await database.db.deleteFrom("mailOutbox").execute();
  await database.db.deleteFrom("comments").execute();
  await database.db.updateTable("users").set({ replyNotifications: 1, locale: null, emailVerified: 1 }).execute();
});

async function comment(authorId: string, body: string, opts: Partial<SubmitCommentInput> = {}): Promise<string> {
  const result = await submitComment(
    database.db,
    { postId, authorId, body, moderation: "auto", ...opts },
    undefined,
    commentMail(deps, "off"),
  );
  if (!result.ok || !result.id) throw new Error(`not stored: ${JSON.stringify(result)}`);
  return result.id;
}

const outbox = () =>
  database.db
    .selectFrom("mailOutbox")
    .select(["key", "kind", "recipient", "subject", "text", "headers"])
    .orderBy("key")
    .execute();

/** The stop link of a mail's text. */
const stopLinkIn = (text: string) =>
  text.match(/https:\/\/blog\.test\/\w+\/notifications\/replies\/stop\?token=\S+/)?.[0];

describe("a reply readers see at once (auto)", () => {
  it("queues one mail to the parent's author, with the post, the replier, an excerpt and both links", async () => {
    await database.db.updateTable("users").set({ locale: "en" }).where("id", "=", alice).execute();
    const parent = await comment(alice, "First!");
    const reply = await comment(bob, `Agreed, **mostly**.\n\n${"word ".repeat(200)}`, { parentId: parent });
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ key: replyKey(reply), kind: "reply", recipient: "alice@example.test" });
    expect(mail?.subject).toBe("Bob replied to your comment on “Tea & Time”");
    expect(mail?.text).toContain("Agreed, **mostly**. word word");
    // The excerpt is bounded and on one line.
    expect(mail?.text).not.toContain("word ".repeat(70));
    expect(mail?.text).toContain(`${BASE}/en/posts/detail/${postId}#comment-${reply}`);
    const stop = stopLinkIn(mail?.text ?? "");
    expect(stop).toBe(
      `${BASE}/en/notifications/replies/stop?token=${encodeURIComponent(replyStopToken(SECRET, alice))}`,
    );
    expect(JSON.parse(mail?.headers ?? "{}")).toEqual({
      "List-Unsubscribe": `<${stop}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("writes in the site's default language (Chinese) to someone whose language is unknown", async () => {
    const parent = await comment(alice, "First!");
    await comment(bob, "回复", { parentId: parent });
    const [mail] = await outbox();
    expect(mail?.subject).toBe("Bob 回复了你在《茶与时间》下的评论");
    expect(mail?.text).toContain(`${BASE}/zh/posts/detail/${postId}`);
  });

  it("remembers the replier's language for the mail they get later", async () => {
    const parent = await comment(bob, "Hello", { locale: "en" });
    await comment(alice, "Hi Bob", { parentId: parent });
    expect((await outbox())[0]?.subject).toBe("Alice replied to your comment on “Tea & Time”");
  });

  it("sends nothing for a top-level comment or a reply to oneself", async () => {
    const parent = await comment(alice, "First!");
    await comment(alice, "And another thing", { parentId: parent });
    expect(await outbox()).toEqual([]);
  });

  it("sends nothing when the parent's author turned notifications off or is not verified", async () => {
    const parent = await comment(alice, "First!");
    await setReplyNotifications(database.db, alice, false);
    await comment(bob, "One", { parentId: parent });
    await setReplyNotifications(database.db, alice, true);
    await database.db.updateTable("users").set({ emailVerified: 0 }).where("id", "=", alice).execute();
    await comment(bob, "Two", { parentId: parent });
    expect(await outbox()).toEqual([]);
  });

  it("sends nothing when the parent's author account is gone", async () => {
    const ghost = await insertUser(database.db, { email: "ghost@example.test" });
    const parent = await comment(ghost, "Soon gone");
    await database.db.deleteFrom("users").where("id", "=", ghost).execute();
    await comment(bob, "Hello?", { parentId: parent });
    expect(await outbox()).toEqual([]);
  });

  it("stores neither the reply nor its mail when queueing fails", async () => {
    const parent = await comment(alice, "First!");
    const failing: NoticeDeps = {
      ...deps,
      mailer: {
        target: "test",
        send: async () => {
          throw new Error("outbox refused");
        },
      },
    };
    await expect(
      submitComment(
        database.db,
        { postId, authorId: bob, body: "Lost", parentId: parent, moderation: "auto" },
        undefined,
        commentMail(failing, "off"),
      ),
    ).rejects.toThrow("outbox refused");
    const replies = await database.db.selectFrom("comments").select("id").where("parentId", "=", parent).execute();
    expect(replies).toEqual([]);
  });
});

function adminContext() {
  return testRouterContext({
    db: database.db,
    dialect: database.dialect,
    env: { authSecret: SECRET, publicUrl: BASE } as Services["env"],
    log: pino({ level: "silent" }),
    mailer: deps.mailer,
    auth: lazyModule(
      async () =>
        ({
          api: {
            getSession: async () => ({
              user: { id: adminId, email: ADMIN.email, emailVerified: true, name: "Admin", image: null },
              session: { id: "s", userId: adminId },
            }),
          },
        }) as unknown as Awaited<ReturnType<Services["auth"]>>,
    ),
  });
}

async function moderate(action: "approve" | "hide", id: string) {
  const body = new FormData();
  body.set("one", `${action}:${id}`);
  body.set("back", "/admin/comments");
  const request = new Request(`${BASE}/admin/comments`, {
    method: "POST",
    body,
    headers: { cookie: "inkwell.session_token=fake" },
  });
  return callRoute(moderateAction, { request, context: adminContext() });
}

describe("a held reply (hold)", () => {
  it("mails nobody until an admin approves it, then exactly once, however often it is approved", async () => {
    const parent = await comment(alice, "First!");
    const reply = await comment(bob, "Held back", { parentId: parent, moderation: "hold" });
    expect(await outbox()).toEqual([]);

    expect((await moderate("approve", reply)).status).toBe(302);
    expect((await outbox()).map((m) => [m.key, m.recipient])).toEqual([[replyKey(reply), "alice@example.test"]]);

    expect((await moderate("approve", reply)).status).toBe(302);
    expect((await moderate("hide", reply)).status).toBe(302);
    expect((await moderate("approve", reply)).status).toBe(302);
    expect(await outbox()).toHaveLength(1);
  });

  it("approving a reply under a hidden comment mails nobody: readers still cannot see it", async () => {
    const parent = await comment(alice, "First!");
    const reply = await comment(bob, "Held back", { parentId: parent, moderation: "hold" });
    await moderate("hide", parent);
    await moderate("approve", reply);
    expect(await outbox()).toEqual([]);
  });

  it("approving a top-level comment or a self-reply mails nobody", async () => {
    const parent = await comment(alice, "Held top", { moderation: "hold" });
    await moderate("approve", parent);
    const self = await comment(alice, "Held self-reply", { parentId: parent, moderation: "hold" });
    await moderate("approve", self);
    expect(await outbox()).toEqual([]);
  });
});

function stopContext() {
  return testRouterContext({
    db: database.db,
    env: { authSecret: SECRET, publicUrl: BASE } as Services["env"],
    log: pino({ level: "silent" }),
  });
}

const stopUrl = (token: string) => `${BASE}/en/notifications/replies/stop?token=${encodeURIComponent(token)}`;

describe("the stop link", () => {
  it("changes nothing when opened (GET), and shows the button", async () => {
    const token = replyStopToken(SECRET, alice);
    const answer = await callRoute(stopLoader, { request: new Request(stopUrl(token)), context: stopContext() });
    expect(answer).toMatchObject({ status: 200, body: { token } });
    expect(await replyNotificationsOn(database.db, alice)).toBe(true);
  });

  it("turns reply notifications off on the button's POST; a later reply sends nothing", async () => {
    const token = replyStopToken(SECRET, alice);
    const form = new FormData();
    form.set("token", token);
    const answer = await callRoute(stopAction, {
      request: new Request(stopUrl(token), { method: "POST", body: form }),
      context: stopContext(),
    });
    expect(answer).toMatchObject({ status: 200, body: { done: true } });
    expect(await replyNotificationsOn(database.db, alice)).toBe(false);
    expect(await replyNotificationsOn(database.db, bob)).toBe(true);

    const parent = await comment(alice, "First!");
    await comment(bob, "You will not hear of this", { parentId: parent });
    expect(await outbox()).toEqual([]);
  });

  it("takes a mail client's one-click POST (token in the URL, RFC 8058 body)", async () => {
    const token = replyStopToken(SECRET, bob);
    const request = new Request(stopUrl(token), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(await callRoute(stopAction, { request, context: stopContext() })).toMatchObject({ status: 200 });
    expect(await replyNotificationsOn(database.db, bob)).toBe(false);
  });

  it("answers 400 with the invalid-link message for a forged, altered or missing token", async () => {
    const good = replyStopToken(SECRET, alice);
    for (const token of [
      "",
      "nonsense",
      replyStopToken("another secret, another site......", alice),
      `${bob}.${good.split(".")[1]}`,
      `${good}x`,
    ]) {
      const form = new FormData();
      form.set("token", token);
      const posted = await callRoute(stopAction, {
        request: new Request(`${BASE}/en/notifications/replies/stop`, { method: "POST", body: form }),
        context: stopContext(),
      });
      expect(posted, token).toMatchObject({ status: 400, body: { done: false, invalid: true } });
      const opened = await callRoute(stopLoader, { request: new Request(stopUrl(token)), context: stopContext() });
      expect(opened, token).toMatchObject({ status: 400, body: { token: "" } });
    }
    expect(await replyNotificationsOn(database.db, alice)).toBe(true);
    expect(await replyNotificationsOn(database.db, bob)).toBe(true);
  });
});
