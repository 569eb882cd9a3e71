import { randomBytes } from "node:crypto";
import { Announce, PUBLIC_COLLECTION } from "@fedify/vocab";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DB, nowIso } from "../../app/server/db/db.server.ts";
import { addBlock, removeBlock } from "../../app/server/federation/inbound-store.server.ts";
import { FEDERATION_BODY_LIMIT } from "../../app/server/http/federation.server.ts";
import { updateSiteSettings } from "../../app/server/site/site-settings.server.ts";
import { peerActivities } from "../setup/federation-activities.ts";
import {
  eventually,
  type FederationBlog,
  insertFederatedPost,
  insertTaggedPost,
  postPage,
  settle,
  startFederationBlog,
} from "../setup/federation-blog.ts";
import type { FediversePeer } from "../setup/fediverse-peer.ts";
import { testDialect } from "../setup/test-db.ts";
import { createTestRedis } from "../setup/test-redis.ts";

// The blog as two Fediverse accounts, against a Fedify peer on loopback (a Mastodon
// stand-in): WebFinger, Follow → Accept, a published post arriving as a signed
// Create(Article) in its language, Update on edit, Delete on trash, Undo(Follow).
// The production server runs with the test seam that allows http loopback peers (without
// it, over http, federation stays off: federation-https.test.ts).

/** The inbox budget per server in these tests: above what the peer sends in a minute. */
const INBOX_PER_MINUTE = 120;

// With TEST_FEDERATION_REDIS_URL the blog runs with REDIS_URL: Fedify's store and queue (and
// the shared state) in Redis, under a key prefix of its own, removed afterwards.
const federationRedisUrl = process.env.TEST_FEDERATION_REDIS_URL || null;
const federationRedisPrefix = `inkwell-test-fed-${randomBytes(6).toString("hex")}:`;

describe(`federation (${testDialect()}${federationRedisUrl ? ", redis" : ""})`, () => {
  let blog: FederationBlog;
  let db: DB;
  let peer: FediversePeer;
  let base: string;
  let host: string;

  const { reply, like, undo, edit, deletion, create, aliceJson } = peerActivities(() => peer);

  beforeAll(async () => {
    blog = await startFederationBlog({
      FEDERATION_INBOX_PER_MINUTE: String(INBOX_PER_MINUTE),
      ...(federationRedisUrl ? { REDIS_URL: federationRedisUrl, REDIS_PREFIX: federationRedisPrefix } : {}),
    });
    ({ db, peer, base, host } = blog);
  });

  // A failure on a loaded machine says what the blog logged (warnings and errors only).
  beforeEach((context) => {
    context.onTestFailed(() => {
      console.error(`the blog's log:\n${blog?.server.output().slice(-8000)}`);
    });
  });

  afterAll(async () => {
    await blog?.close();
    if (federationRedisUrl) {
      const redis = await createTestRedis(federationRedisUrl);
      const keys = await redis.client.keys(`${federationRedisPrefix}*`);
      if (keys.length > 0) await redis.client.del(keys);
      await redis.cleanup();
    }
  });

  it("answers WebFinger for each language's handle, and NodeInfo 2.1", async () => {
    const res = await fetch(`${base}/.well-known/webfinger?resource=acct:blog@${host}`);
    expect(res.status).toBe(200);
    const jrd = (await res.json()) as { subject: string; links: Array<{ rel: string; href?: string; type?: string }> };
    expect(jrd.subject).toBe(`acct:blog@${host}`);
    expect(jrd.links.find((l) => l.rel === "self")?.href).toBe(`${base}/ap/actors/zh`);
    const en = (await (
      await fetch(`${base}/.well-known/webfinger?resource=acct:blog-en@${host}`)
    ).json()) as typeof jrd;
    expect(en.links.find((l) => l.rel === "self")?.href).toBe(`${base}/ap/actors/en`);
    expect((await fetch(`${base}/.well-known/webfinger?resource=acct:nobody@${host}`)).status).toBe(404);

    const links = (await (await fetch(`${base}/.well-known/nodeinfo`)).json()) as { links: Array<{ href: string }> };
    expect(links.links[0]?.href).toBe(`${base}/nodeinfo/2.1`);
    const info = (await (await fetch(`${base}/nodeinfo/2.1`)).json()) as {
      software: { name: string };
      protocols: string[];
    };
    expect(info.software.name).toBe("inkwell");
    expect(info.protocols).toEqual(["activitypub"]);
  });

  it("serves each actor with its keys, inbox, shared inbox, outbox and followers", async () => {
    const res = await fetch(`${base}/ap/actors/en`, { headers: { accept: "application/activity+json" } });
    expect(res.status).toBe(200);
    const actor = (await res.json()) as Record<string, unknown>;
    expect(actor.preferredUsername).toBe("blog-en");
    expect(actor.inbox).toBe(`${base}/ap/actors/en/inbox`);
    expect((actor.endpoints as { sharedInbox: string }).sharedInbox).toBe(`${base}/ap/inbox`);
    expect(actor.outbox).toBe(`${base}/ap/actors/en/outbox`);
    expect(actor.followers).toBe(`${base}/ap/actors/en/followers`);
    expect(String((actor.publicKey as { publicKeyPem: string }).publicKeyPem)).toContain("BEGIN PUBLIC KEY");
    // Generated once: the same keys on every request, stored (RSA and Ed25519).
    const keys = await db
      .selectFrom("federationKeys")
      .select(["actor", "algorithm"])
      .where("actor", "=", "en")
      .execute();
    expect(keys.map((k) => k.algorithm).sort()).toEqual(["ed25519", "rsa"]);
    const again = (await (
      await fetch(`${base}/ap/actors/en`, { headers: { accept: "application/activity+json" } })
    ).json()) as typeof actor;
    expect(again.publicKey).toEqual(actor.publicKey);
    expect((await fetch(`${base}/ap/actors/fr`, { headers: { accept: "application/activity+json" } })).status).toBe(
      404,
    );
  });

  // A whole journey with a restart in it: its own time budget.
  it("accepts a follow, delivers posts in the follower's language, then the unfollow", {
    timeout: 90_000,
  }, async () => {
    // Found by its handle, as a Mastodon user would search for it.
    const zhActor = await peer.lookup(`@blog@${host}`);
    expect(zhActor.href).toBe(`${base}/ap/actors/zh`);
    const followId = await peer.follow(zhActor);
    const accept = await peer.waitFor((a) => a.type === "Accept");
    expect(accept.signature).toBeTruthy();
    expect(JSON.stringify(accept.json)).toContain(followId);
    const followers = await db.selectFrom("federationFollowers").selectAll().execute();
    expect(followers).toHaveLength(1);
    expect(followers[0]).toMatchObject({
      actor: "zh",
      followerUri: peer.actorId.href,
      handle: `@alice@${new URL(peer.url).host}`,
    });

    // A replayed Follow (same id) changes nothing and is not accepted twice.
    await peer.follow(zhActor, followId);
    await new Promise((r) => setTimeout(r, 1500));
    expect(peer.received.filter((a) => a.type === "Accept")).toHaveLength(1);
    expect(await db.selectFrom("federationFollowers").select("id").execute()).toHaveLength(1);

    const collection = await fetch(`${base}/ap/actors/zh/followers`, {
      headers: { accept: "application/activity+json" },
    });
    expect(((await collection.json()) as { totalItems: number }).totalItems).toBe(1);
    const page = await fetch(`${base}/ap/actors/zh/followers?cursor=0`, {
      headers: { accept: "application/activity+json" },
    });
    expect(JSON.stringify(await page.json())).toContain(peer.actorId.href);

    // Published now: arrives once as Create(Article) in Chinese only (the peer follows the 中文 account).
    await insertTaggedPost(db, "fedpost1", { status: "published", publishedAt: nowIso() });
    const create = await peer.waitFor((a) => a.type === "Create");
    expect(create.signature).toBeTruthy();
    const article = create.json.object as Record<string, unknown>;
    expect(article.type).toBe("Article");
    expect(article.name).toBe("中文标题 fedpost1");
    expect(article.summary).toBe("摘要");
    expect(article.content).toBe("<p>正文</p>");
    // Language tags are case-insensitive (BCP 47); JSON-LD compaction writes them lower-case.
    expect(article.contentMap).toEqual({ "zh-hans": "<p>正文</p>" });
    // Tagged so Insights counts the reads it brings.
    expect(article.url).toBe(`${base}/zh/posts/detail/fedpost1?utm_source=fediverse`);
    expect(article.published).toBeTruthy();
    expect(JSON.stringify(article.tag)).toContain("#开放网络");
    expect(create.json.actor).toBe(`${base}/ap/actors/zh`);

    // The outbox lists it too.
    const outbox = await fetch(`${base}/ap/actors/zh/outbox?cursor=0`, {
      headers: { accept: "application/activity+json" },
    });
    expect(JSON.stringify(await outbox.json())).toContain(`${base}/ap/articles/zh/fedpost1`);

    // Edited: one Update; trashed: one Delete.
    await db
      .updateTable("postTranslations")
      .set({ title: "新标题", updatedAt: nowIso() })
      .where("postId", "=", "fedpost1")
      .where("locale", "=", "zh")
      .execute();
    const update = await peer.waitFor((a) => a.type === "Update");
    expect((update.json.object as Record<string, unknown>).name).toBe("新标题");
    await db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", "fedpost1").execute();
    const del = await peer.waitFor((a) => a.type === "Delete");
    expect(JSON.stringify(del.json.object)).toContain(`${base}/ap/articles/zh/fedpost1`);
    expect(peer.received.filter((a) => a.type === "Create")).toHaveLength(1);

    // A scheduled post federates when the scheduler makes it live.
    await insertTaggedPost(db, "fedpost2", { status: "scheduled", publishedAt: nowIso(new Date(Date.now() + 1500)) });
    const scheduled = await peer.waitFor(
      (a) => a.type === "Create" && (a.json.object as Record<string, unknown>).name === "中文标题 fedpost2",
    );
    expect((scheduled.json.object as Record<string, unknown>).contentMap).toEqual({ "zh-hans": "<p>正文</p>" });

    // The peer is down for two deliveries: the post still arrives, retried from the durable queue.
    peer.failNext(2);
    await insertTaggedPost(db, "fedpost3", { status: "published", publishedAt: nowIso() });
    await peer.waitFor(
      (a) => a.type === "Create" && (a.json.object as Record<string, unknown>).name === "中文标题 fedpost3",
      20_000,
    );
    expect(peer.failed()).toBe(2);

    // Killed (kill -9) while a delivery waits for its retry: the restarted server delivers it.
    peer.failNext(1000);
    await insertTaggedPost(db, "fedpost4", { status: "published", publishedAt: nowIso() });
    const deadline = Date.now() + 15_000;
    while (peer.failed() < 4) {
      if (Date.now() > deadline) throw new Error("the delivery was not attempted");
      await new Promise((r) => setTimeout(r, 20));
    }
    // Killed once the failed attempt is back in the queue with its delay, and nothing is being
    // handled: a row in the database that no worker holds, or an entry in Redis's due set.
    // (Killed while a worker held the message, the retry would wait out the 5-minute lock.)
    const retryWaiting = async () => {
      if (federationRedisUrl) {
        const redis = await createTestRedis(federationRedisUrl);
        const due = await redis.client.zCard(`${federationRedisPrefix}fedify:queue:due`);
        await redis.cleanup();
        return due > 0 ? true : null;
      }
      const rows = await db.selectFrom("federationQueue").select("lockedUntil").execute();
      return rows.length > 0 && rows.every((r) => r.lockedUntil === null) ? true : null;
    };
    await eventually(retryWaiting, "the retry to wait in the queue");
    await blog.server.stop("SIGKILL");
    expect(peer.received.some((a) => (a.json.object as Record<string, unknown>)?.name === "中文标题 fedpost4")).toBe(
      false,
    );
    peer.failNext(0);
    await blog.restart();
    await peer.waitFor(
      (a) => a.type === "Create" && (a.json.object as Record<string, unknown>).name === "中文标题 fedpost4",
      20_000,
    );

    // Another account cannot undo alice's follow.
    await peer.unfollow(zhActor, followId, "mallory");
    await new Promise((r) => setTimeout(r, 1500));
    expect(await db.selectFrom("federationFollowers").select("followerUri").execute()).toEqual([
      { followerUri: peer.actorId.href },
    ]);

    await peer.unfollow(zhActor, followId);
    const until = Date.now() + 10_000;
    while ((await db.selectFrom("federationFollowers").select("id").execute()).length > 0) {
      if (Date.now() > until) throw new Error("the follower was not removed");
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it("takes replies as comments: stored, shown, edited and deleted only by their author, nested, sanitised", {
    timeout: 90_000,
  }, async () => {
    await insertTaggedPost(db, "fedreply000000000001", { status: "published", publishedAt: nowIso() });
    const zhActor = new URL(`${base}/ap/actors/zh`);
    const alice = peer.actorUri("alice");
    const mallory = peer.actorUri("mallory");
    const peerHost = new URL(peer.url).host;
    const article = `${base}/ap/articles/zh/fedreply000000000001`;
    const commentOf = (noteId: URL) =>
      db.selectFrom("comments").selectAll().where("remoteNoteUri", "=", noteId.href).executeTakeFirst();

    // A reply with script, an event handler and an image in it.
    const first = reply(
      "alice",
      article,
      '<p>Hello <strong>blog</strong><script>alert("x")</script><img src="x" onerror="alert(1)"> <a href="javascript:alert(1)">bad</a></p>',
    );
    await peer.send(zhActor, create(alice, first));
    const stored = await eventually(() => commentOf(first.id as URL), "the reply");
    expect(stored).toMatchObject({
      postId: "fedreply000000000001",
      parentId: null,
      status: "approved",
      remoteActorUri: alice.href,
    });
    expect(stored.bodyHtml).toContain("<strong>blog</strong>");
    expect(stored.bodyHtml).not.toMatch(/script|onerror|<img|javascript:/i);

    // On the post page (both languages): name, handle, a link to the note; no remote avatar.
    for (const locale of ["en", "zh"] as const) {
      const html = await postPage(base, locale, "fedreply000000000001");
      expect(html).toContain("Alice Peer");
      expect(html).toContain(`@alice@${peerHost}`);
      expect(html).toContain(`href="${first.id?.href}/page"`);
      expect(html).toContain("Hello <strong>blog</strong>");
      expect(html).not.toContain("/avatars/alice.png");
      expect(html).not.toContain('alert("x")');
    }
    const actorRow = await db
      .selectFrom("federationRemoteActors")
      .selectAll()
      .where("uri", "=", alice.href)
      .executeTakeFirstOrThrow();
    expect(actorRow).toMatchObject({ handle: `@alice@${peerHost}`, name: "Alice Peer", server: peerHost });
    expect(actorRow.avatarUrl).toBe(`${peer.url}/avatars/alice.png`);

    // Replayed: the same Create, and the same note in a new Create, store nothing new.
    await peer.send(zhActor, create(alice, first));
    await peer.send(zhActor, create(alice, first, peer.newId("alice", "activities")));
    await settle();
    expect(
      await db
        .selectFrom("comments")
        .select("id")
        .where("remoteNoteUri", "=", first.id?.href ?? "")
        .execute(),
    ).toHaveLength(1);

    // A reply to the reply nests under it; a reply to that one too (one level, as for local replies).
    const second = reply("mallory", first.id?.href ?? "", "<p>Second</p>");
    await peer.send(zhActor, create(mallory, second), "mallory");
    const secondRow = await eventually(() => commentOf(second.id as URL), "the reply to the reply");
    expect(secondRow.parentId).toBe(stored.id);
    const third = reply("alice", second.id?.href ?? "", "<p>Third</p>");
    await peer.send(zhActor, create(alice, third));
    expect((await eventually(() => commentOf(third.id as URL), "the third reply")).parentId).toBe(stored.id);

    // mallory cannot edit or delete alice's note; a note claiming alice as its author, sent by mallory, is refused.
    const forgedEdit = reply("alice", article, "<p>Forged</p>", first.id as URL);
    await peer.send(zhActor, edit("mallory", forgedEdit), "mallory");
    await peer.send(zhActor, deletion("mallory", first.id), "mallory");
    const impostor = reply("alice", article, "<p>Me?</p>");
    await peer.send(zhActor, create(mallory, impostor), "mallory");
    await settle();
    expect((await commentOf(first.id as URL))?.bodyHtml).toContain("Hello");
    expect(await commentOf(impostor.id as URL)).toBeUndefined();

    // alice edits hers: the page shows the new text.
    const edited = reply("alice", article, "<p>Edited <em>reply</em></p>", first.id as URL);
    await peer.send(zhActor, edit("alice", edited));
    await eventually(
      async () => ((await commentOf(first.id as URL))?.bodyHtml.includes("Edited") ? true : undefined),
      "the edit",
    );
    expect(await postPage(base, "en", "fedreply000000000001")).toContain("Edited <em>reply</em>");

    // A reply to a draft, to a post that does not exist, and to something not ours: nothing stored.
    await insertTaggedPost(db, "fedreplydraft0000001", { status: "draft", publishedAt: nowIso() });
    const before = await db.selectFrom("comments").select("id").execute();
    for (const target of [
      `${base}/ap/articles/zh/fedreplydraft0000001`,
      `${base}/ap/articles/zh/nosuchpost`,
      `${peer.url}/users/alice/statuses/elsewhere`,
    ]) {
      await peer.send(zhActor, create(alice, reply("alice", target, "<p>x</p>")));
    }
    await settle();
    expect(await db.selectFrom("comments").select("id").execute()).toHaveLength(before.length);

    // Held for moderation when the site holds comments: not on the page until approved.
    await updateSiteSettings(db, { commentModeration: "hold" });
    const held = reply("alice", article, "<p>Held one</p>");
    await peer.send(zhActor, create(alice, held));
    expect((await eventually(() => commentOf(held.id as URL), "the held reply")).status).toBe("pending");
    expect(await postPage(base, "en", "fedreply000000000001")).not.toContain("Held one");
    await updateSiteSettings(db, { commentModeration: "auto" });

    // alice deletes hers: gone from the page, with the replies under it.
    await peer.send(zhActor, deletion("alice", first.id));
    await eventually(async () => ((await commentOf(first.id as URL)) ? undefined : true), "the delete");
    expect(await commentOf(second.id as URL)).toBeUndefined();
    const after = await postPage(base, "en", "fedreply000000000001");
    expect(after).not.toContain("Edited <em>reply</em>");
    expect(after).not.toContain("Second");
  });

  it("counts likes and boosts once per account, shows them in both languages, and takes their Undo", {
    timeout: 60_000,
  }, async () => {
    await insertTaggedPost(db, "fedlikes000000000001", { status: "published", publishedAt: nowIso() });
    const zhActor = new URL(`${base}/ap/actors/zh`);
    const alice = peer.actorUri("alice");
    const article = new URL(`${base}/ap/articles/en/fedlikes000000000001`);
    const counts = async () => {
      const rows = await db
        .selectFrom("federationReactions")
        .select("kind")
        .where("postId", "=", "fedlikes000000000001")
        .execute();
      return `${rows.filter((r) => r.kind === "like").length}/${rows.filter((r) => r.kind === "announce").length}`;
    };
    // None yet: no line on the page.
    expect(await postPage(base, "en", "fedlikes000000000001")).not.toContain('data-testid="fediverse-reactions"');

    const aliceLike = like("alice", article);
    await peer.send(zhActor, aliceLike);
    // The same account liking again (a new id) counts once.
    await peer.send(zhActor, like("alice", article));
    const malloryLike = like("mallory", article);
    await peer.send(zhActor, malloryLike, "mallory");
    await peer.send(
      zhActor,
      new Announce({ id: peer.newId("alice", "boosts"), actor: alice, object: article, to: PUBLIC_COLLECTION }),
    );
    await eventually(async () => ((await counts()) === "2/1" ? true : undefined), "two likes and a boost");
    expect(await postPage(base, "en", "fedlikes000000000001")).toContain("2 likes · 1 boost from the Fediverse");
    expect(await postPage(base, "zh", "fedlikes000000000001")).toContain("来自联邦宇宙的 2 个赞 · 1 次转发");

    // alice cannot undo mallory's like; mallory can.
    await peer.send(zhActor, undo("alice", malloryLike));
    await settle();
    expect(await counts()).toBe("2/1");
    await peer.send(zhActor, undo("mallory", malloryLike), "mallory");
    await eventually(async () => ((await counts()) === "1/1" ? true : undefined), "the undone like");
    expect(await postPage(base, "en", "fedlikes000000000001")).toContain("1 like · 1 boost from the Fediverse");
    // A like of a post that does not exist is not stored.
    await peer.send(zhActor, like("alice", new URL(`${base}/ap/articles/en/nosuchpost`)));
    await settle();
    expect(await db.selectFrom("federationReactions").select("postId").execute()).toHaveLength(2);
  });

  it("ignores blocked accounts and servers: replies hidden and dropped, likes and follows ignored; unblock works", {
    timeout: 90_000,
  }, async () => {
    await insertTaggedPost(db, "fedblock000000000001", { status: "published", publishedAt: nowIso() });
    const zhActor = new URL(`${base}/ap/actors/zh`);
    const alice = peer.actorUri("alice");
    const mallory = peer.actorUri("mallory");
    const article = `${base}/ap/articles/zh/fedblock000000000001`;
    const article2 = new URL(`${base}/ap/articles/en/fedblock000000000001`);
    const commentOf = (noteId: URL | null) =>
      db
        .selectFrom("comments")
        .selectAll()
        .where("remoteNoteUri", "=", noteId?.href ?? "")
        .executeTakeFirst();
    // The admin's block drops every cached page (the route's content write); written here directly,
    // each look at the page asks for a fresh one.
    let look = 0;
    const freshPage = async () => {
      const res = await fetch(`${base}/en/posts/detail/fedblock000000000001?look=${++look}`);
      return res.text();
    };

    const before = reply("alice", article, "<p>Before the block</p>");
    await peer.send(zhActor, create(alice, before));
    await eventually(() => commentOf(before.id), "the reply before the block");
    expect(await freshPage()).toContain("Before the block");

    const actorBlock = await addBlock(db, "actor", alice.href);
    // Hidden from readers, kept in the database (unblocking shows it again).
    expect(await freshPage()).not.toContain("Before the block");
    const during = reply("alice", article, "<p>During</p>");
    await peer.send(zhActor, create(alice, during));
    await peer.send(zhActor, like("alice", article2));
    const accepts = peer.received.filter((a) => a.type === "Accept").length;
    await peer.follow(zhActor);
    // mallory (same server, not blocked) still gets through: the queue has handled what came before.
    const fromMallory = reply("mallory", article, "<p>Mallory here</p>");
    await peer.send(zhActor, create(mallory, fromMallory), "mallory");
    await eventually(() => commentOf(fromMallory.id), "mallory's reply");
    await settle();
    expect(await commentOf(during.id)).toBeUndefined();
    expect(
      await db
        .selectFrom("federationReactions")
        .select("postId")
        .where("postId", "=", "fedblock000000000001")
        .execute(),
    ).toHaveLength(0);
    expect(peer.received.filter((a) => a.type === "Accept")).toHaveLength(accepts);
    expect(await db.selectFrom("federationFollowers").select("id").execute()).toHaveLength(0);

    // The whole server blocked: mallory's reply hidden, the next one dropped.
    const domainBlock = await addBlock(db, "domain", "127.0.0.1");
    expect(await freshPage()).not.toContain("Mallory here");
    const second = reply("mallory", article, "<p>Again</p>");
    await peer.send(zhActor, create(mallory, second), "mallory");
    await settle();
    expect(await commentOf(second.id)).toBeUndefined();

    // Unblocked: the replies show again and new ones are taken.
    await removeBlock(db, domainBlock);
    await removeBlock(db, actorBlock);
    const page = await freshPage();
    expect(page).toContain("Before the block");
    expect(page).toContain("Mallory here");
    const after = reply("alice", article, "<p>After</p>");
    await peer.send(zhActor, create(alice, after));
    await eventually(() => commentOf(after.id), "the reply after the unblock");
  });

  it("lets no forged keyId spend a server's FEDERATION_INBOX_PER_MINUTE budget", async () => {
    // The budget counts verified activities only (the limits before verification, per address
    // and overall, are in tests/security/inbox-limits.test.ts): more forgeries naming the
    // peer's key than its budget leave the peer's deliveries untouched.
    const keyId = `${peer.url}/users/alice#main-key`;
    const forged = JSON.stringify({ type: "Like", actor: `${peer.url}/users/alice` });
    const statuses = new Set<number>();
    for (let i = 0; i < INBOX_PER_MINUTE + 1; i++) {
      const res = await fetch(`${base}/ap/inbox`, {
        method: "POST",
        headers: {
          "content-type": "application/activity+json",
          date: new Date().toUTCString(),
          signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="date",signature="eA=="`,
        },
        body: forged,
      });
      await res.arrayBuffer();
      statuses.add(res.status);
    }
    expect(statuses.has(429)).toBe(false);
    const like = aliceJson("likes/after-forgeries", "Like", `${base}/ap/articles/zh/no-such-post`);
    const res = await peer.postSigned(`${base}/ap/inbox`, like, "draft-cavage-http-signatures-12");
    expect(res.status).toBe(202);
  });

  it("refuses unsigned and badly signed activities (401), huge bodies (413), unknown actors (404)", async () => {
    const activity = aliceJson("follows/forged", "Follow", `${base}/ap/actors/zh`);
    const post = (path: string, body: string, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/activity+json", ...headers },
        body,
      });
    expect((await post("/ap/actors/zh/inbox", activity)).status).toBe(401);
    expect((await post("/ap/inbox", activity)).status).toBe(401);
    const forged = await post("/ap/actors/zh/inbox", activity, {
      date: new Date().toUTCString(),
      signature: `keyId="${peer.url}/users/alice#main-key",algorithm="rsa-sha256",headers="(request-target) host date",signature="${Buffer.from("forged").toString("base64")}"`,
    });
    expect(forged.status).toBe(401);
    const huge = await post("/ap/actors/zh/inbox", "x".repeat(FEDERATION_BODY_LIMIT + 1));
    expect(huge.status).toBe(413);
    expect((await post("/ap/actors/nobody/inbox", activity)).status).toBe(404);
    expect(await db.selectFrom("federationFollowers").select("id").execute()).toHaveLength(0);
  });

  it("takes activities signed in either HTTP signature format (draft-cavage and RFC 9421)", async () => {
    for (const [actor, spec] of [
      ["zh", "draft-cavage-http-signatures-12"],
      ["en", "rfc9421"],
    ] as const) {
      const follow = aliceJson(`follows/${spec}`, "Follow", `${base}/ap/actors/${actor}`);
      const res = await peer.postSigned(`${base}/ap/actors/${actor}/inbox`, follow, spec);
      expect(res.status, spec).toBeLessThan(300);
    }
    // Each Follow was taken: alice follows both accounts, and each answered with an Accept.
    const rows = await eventually(async () => {
      const found = await db.selectFrom("federationFollowers").select("actor").orderBy("actor").execute();
      return found.length === 2 ? found : undefined;
    }, "both follows");
    expect(rows.map((r) => r.actor)).toEqual(["en", "zh"]);
    await db.deleteFrom("federationFollowers").execute();
  });

  it("counts each account's posts in its outbox's totalItems (Mastodon's post count)", async () => {
    const totalOf = async (actor: "en" | "zh") => {
      const res = await fetch(`${base}/ap/actors/${actor}/outbox`, {
        headers: { accept: "application/activity+json" },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { totalItems?: unknown }).totalItems;
    };
    const before = { en: await totalOf("en"), zh: await totalOf("zh") };
    expect(typeof before.en).toBe("number");
    expect(typeof before.zh).toBe("number");
    // Two federated posts, one of them in Chinese only, and one that is not federated.
    await insertFederatedPost(db, "countpost1", { zhTitle: "计数一", en: true });
    await insertFederatedPost(db, "countpost2", { zhTitle: "计数二" });
    await insertFederatedPost(db, "countpost3", { zhTitle: "计数三", en: true, federate: false });
    expect(await totalOf("zh")).toBe(Number(before.zh) + 2);
    expect(await totalOf("en")).toBe(Number(before.en) + 1);
  });

  it("sends a browser opening an account's or an Article's address to the blog's page", async () => {
    await insertFederatedPost(db, "fedbrowser0000000001", { zhTitle: "浏览器" });
    const html = { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8" };
    for (const [path, page] of [
      ["/ap/actors/zh", "/zh"],
      ["/ap/actors/en", "/en"],
      ["/ap/actors/en/outbox", "/en"],
      ["/ap/articles/zh/fedbrowser0000000001", "/zh/posts/detail/fedbrowser0000000001"],
    ] as const) {
      const res = await fetch(`${base}${path}`, { headers: html, redirect: "manual" });
      await res.arrayBuffer();
      expect([res.status, res.headers.get("location")], path).toEqual([303, page]);
      expect(res.headers.get("vary") ?? "", path).toMatch(/accept/i);
    }
    // Followed, it lands on the post.
    const post = await fetch(`${base}/ap/articles/zh/fedbrowser0000000001`, { headers: html });
    expect(post.status).toBe(200);
    expect(post.url).toBe(`${base}/zh/posts/detail/fedbrowser0000000001`);
    expect(await post.text()).toContain("<title>浏览器");
    // ActivityPub clients still get the Article itself.
    const article = await fetch(`${base}/ap/articles/zh/fedbrowser0000000001`, {
      headers: { accept: "application/activity+json" },
    });
    expect(((await article.json()) as { type: string }).type).toBe("Article");
  });
});
