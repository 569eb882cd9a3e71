import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, nowIso, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/env.server.ts";
import { FEDERATION_BODY_LIMIT } from "../../app/server/http/federation.server.ts";
import { type FediversePeer, startFediversePeer } from "../setup/fediverse-peer.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// The blog as two Fediverse accounts, against a Fedify peer on loopback (a Mastodon
// stand-in): WebFinger, Follow → Accept, a published post arriving as a signed
// Create(Article) in its language, Update on edit, Delete on trash, Undo(Follow).
// The production server runs with the test seam that allows http loopback peers.

describe(`federation (${testDialect()})`, () => {
  let server: ServerProcess;
  let db: DB;
  let closeDb: () => Promise<void>;
  let cleanup: () => Promise<void>;
  let peer: FediversePeer;
  let base: string;
  let host: string;
  let startBlog: () => Promise<ServerProcess>;

  async function insertPost(id: string, opts: { status: "published" | "scheduled"; publishedAt: string }) {
    const at = nowIso();
    await db
      .insertInto("posts")
      .values({
        id,
        slug: id,
        authorId: null,
        status: opts.status,
        publishedAt: opts.publishedAt,
        categoryId: null,
        coverImageId: null,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await db
      .insertInto("postTranslations")
      .values([
        {
          postId: id,
          locale: "zh",
          title: `中文标题 ${id}`,
          summary: "摘要",
          bodyMarkdown: "正文",
          bodyHtml: "<p>正文</p>",
          seoTitle: null,
          seoDescription: null,
          createdAt: at,
          updatedAt: at,
        },
        {
          postId: id,
          locale: "en",
          title: `English ${id}`,
          summary: "Summary",
          bodyMarkdown: "Body",
          bodyHtml: '<p>Body <a href="/en">home</a></p>',
          seoTitle: null,
          seoDescription: null,
          createdAt: at,
          updatedAt: at,
        },
      ])
      .execute();
    await db
      .insertInto("tags")
      .values({
        id: `t-${id}`,
        slug: `tag-${id}`,
        nameEn: "Open Web",
        nameZh: "开放网络",
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await db
      .insertInto("postTags")
      .values({ postId: id, tagId: `t-${id}` })
      .execute();
  }

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    cleanup = database.cleanup;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    host = `127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      FEDERATION: "on",
      SCHEDULER_INTERVAL_MS: "300",
    };
    startBlog = () => startServer(env, { entry: "tests/setup/federation-server.ts" });
    server = await startBlog();
    const opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
    db = opened.db;
    closeDb = () => opened.close();
    peer = await startFediversePeer();
  });

  afterAll(async () => {
    await peer?.close();
    await server?.stop("SIGKILL");
    await closeDb?.();
    await cleanup?.();
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
    await insertPost("fedpost1", { status: "published", publishedAt: nowIso() });
    const create = await peer.waitFor((a) => a.type === "Create");
    expect(create.signature).toBeTruthy();
    const article = create.json.object as Record<string, unknown>;
    expect(article.type).toBe("Article");
    expect(article.name).toBe("中文标题 fedpost1");
    expect(article.summary).toBe("摘要");
    expect(article.content).toBe("<p>正文</p>");
    // Language tags are case-insensitive (BCP 47); JSON-LD compaction writes them lower-case.
    expect(article.contentMap).toEqual({ "zh-hans": "<p>正文</p>" });
    expect(article.url).toBe(`${base}/zh/posts/detail/fedpost1`);
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
    await insertPost("fedpost2", { status: "scheduled", publishedAt: nowIso(new Date(Date.now() + 1500)) });
    const scheduled = await peer.waitFor(
      (a) => a.type === "Create" && (a.json.object as Record<string, unknown>).name === "中文标题 fedpost2",
    );
    expect((scheduled.json.object as Record<string, unknown>).contentMap).toEqual({ "zh-hans": "<p>正文</p>" });

    // The peer is down for two deliveries: the post still arrives, retried from the durable queue.
    peer.failNext(2);
    await insertPost("fedpost3", { status: "published", publishedAt: nowIso() });
    await peer.waitFor(
      (a) => a.type === "Create" && (a.json.object as Record<string, unknown>).name === "中文标题 fedpost3",
      20_000,
    );
    expect(peer.failed()).toBe(2);

    // Killed (kill -9) while a delivery waits for its retry: the restarted server delivers it.
    peer.failNext(1000);
    await insertPost("fedpost4", { status: "published", publishedAt: nowIso() });
    const deadline = Date.now() + 15_000;
    while (peer.failed() < 4) {
      if (Date.now() > deadline) throw new Error("the delivery was not attempted");
      await new Promise((r) => setTimeout(r, 20));
    }
    // The failed attempt is back in the queue (with its delay) a moment after the 503.
    await new Promise((r) => setTimeout(r, 200));
    await server.stop("SIGKILL");
    expect(peer.received.some((a) => (a.json.object as Record<string, unknown>)?.name === "中文标题 fedpost4")).toBe(
      false,
    );
    peer.failNext(0);
    server = await startBlog();
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

  it("refuses unsigned and badly signed activities (401), huge bodies (413), unknown actors (404)", async () => {
    const activity = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id: `${peer.url}/users/alice#follows/forged`,
      type: "Follow",
      actor: `${peer.url}/users/alice`,
      object: `${base}/ap/actors/zh`,
    });
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
});

describe(`federation without https (${testDialect()})`, () => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    cleanup = database.cleanup;
    // The production entry point: no test seam, so http is not enough even with FEDERATION=on.
    server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      FEDERATION: "on",
    });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await cleanup?.();
  });

  it("serves none of the federation endpoints", async () => {
    const host = new URL(server.url).host;
    for (const path of [
      `/.well-known/webfinger?resource=acct:blog@${host}`,
      "/.well-known/nodeinfo",
      "/ap/actors/zh",
    ]) {
      const res = await fetch(`${server.url}${path}`, { headers: { accept: "application/activity+json" } });
      await res.arrayBuffer();
      expect(res.status, path).toBe(404);
    }
    const inbox = await fetch(`${server.url}/ap/inbox`, {
      method: "POST",
      headers: { "content-type": "application/activity+json" },
      body: "{}",
    });
    await inbox.arrayBuffer();
    expect(inbox.status).toBe(404);
  });
});
