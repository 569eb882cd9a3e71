import { Image, Person, PropertyValue } from "@fedify/vocab";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, nowIso } from "../../app/server/db/db.server.ts";
import { eventually, type FederationBlog, insertFederatedPost, startFederationBlog } from "../setup/federation-blog.ts";
import type { FediversePeer } from "../setup/fediverse-peer.ts";
import { testDialect } from "../setup/test-db.ts";

// The outbound half of issue 22 against a Fedify peer on loopback: the accounts' profiles,
// the cover on the Article, the "Share on the Fediverse" box (no Create when off, Delete when
// turned off after federating), and the delivery log with a server given up as dead and
// resumed once it is heard from. The production server runs with the http test seam.

const DEAD_AFTER_MS = 2500;

describe(`federation, outbound (${testDialect()})`, () => {
  let blog: FederationBlog;
  let db: DB;
  let peer: FediversePeer;
  let base: string;
  let host: string;

  const insertPost = (
    id: string,
    opts: { federate?: boolean; cover?: { url: string; alt: string }; publishedAt?: string } = {},
  ) => insertFederatedPost(db, id, { ...opts, zhTitle: `标题 ${id}` });

  const named = (name: string) => (a: { type: string; json: Record<string, unknown> }) =>
    (a.json.object as Record<string, unknown> | undefined)?.name === name;

  /** Waits for a delivery's row (written once the peer has answered) or the server's state. */
  const until = <T>(what: string, probe: () => Promise<T | null | undefined>) => eventually(probe, what, 20_000);

  beforeAll(async () => {
    blog = await startFederationBlog({ TEST_FEDERATION_DEAD_AFTER_MS: String(DEAD_AFTER_MS) });
    ({ db, peer, base, host } = blog);
  });

  afterAll(async () => {
    await blog?.close();
  });

  it("shows each account's profile as Mastodon reads it: name, bio, avatar, header, links", async () => {
    await db
      .insertInto("siteSettings")
      .values({
        key: "socialLinks",
        value: JSON.stringify({ github: "https://github.com/ink", x: "", weibo: "", zhihu: "" }),
        createdAt: nowIso(),
        updatedAt: nowIso(),
      })
      .execute();
    for (const [actor, name, other] of [
      ["en", "Inkwell", `@blog@${host}`],
      ["zh", "墨水博客", `@blog-en@${host}`],
    ] as const) {
      const res = await fetch(`${base}/ap/actors/${actor}`, { headers: { accept: "application/activity+json" } });
      expect(res.status).toBe(200);
      const json = (await res.json()) as Record<string, unknown>;
      // Read the way the peer's Fedify reads a remote actor.
      const person = await Person.fromJsonLd(json);
      expect(person.name?.toString()).toBe(name);
      expect(person.summary?.toString()).toContain(actor === "en" ? "A personal blog" : "个人博客");
      expect(person.url?.toString()).toBe(`${base}/${actor}`);
      const icon = await person.getIcon();
      expect(icon).toBeInstanceOf(Image);
      expect((icon?.url as URL | null)?.href).toBe(`${base}/social.jpg`);
      expect(icon?.mediaType).toBe("image/jpeg");
      const header = await person.getImage();
      expect((header?.url as URL | null)?.href).toBe(`${base}/social.jpg`);
      const fields: PropertyValue[] = [];
      for await (const a of person.getAttachments()) if (a instanceof PropertyValue) fields.push(a);
      const values = fields.map((f) => String(f.value));
      expect(fields.length).toBe(3);
      expect(values[0]).toContain(`href="${base}/${actor}"`);
      expect(values[0]).toContain('rel="me');
      expect(values[1]).toContain(other);
      expect(values[2]).toContain('href="https://github.com/ink"');
      expect(String(fields[0]?.name)).toBe(actor === "en" ? "Website" : "网站");
    }
  });

  // One journey: follow, then the cover, the box, the log, the dead server.
  it("federates covers, honours the box, and logs each delivery", { timeout: 120_000 }, async () => {
    const zhActor = await peer.lookup(`@blog@${host}`);
    await peer.follow(zhActor);
    await peer.waitFor((a) => a.type === "Accept");

    // The cover rides along as the Article's image and as an attachment, with its alt text.
    await insertPost("covered", { cover: { url: "/media/abc123/cover.jpg", alt: "A lighthouse" } });
    const create = await peer.waitFor((a) => a.type === "Create" && named("标题 covered")(a));
    const article = create.json.object as Record<string, unknown>;
    const image = {
      type: "Image",
      url: `${base}/media/abc123/cover.jpg`,
      mediaType: "image/jpeg",
      name: "A lighthouse",
    };
    expect(article.image).toEqual(image);
    expect(article.attachment).toEqual(image);
    expect(article.contentMap).toEqual({ "zh-hans": "<p>正文</p>" });

    // The box off: never sent. A later post proves the sync ran past it.
    await insertPost("private", { federate: false });
    await insertPost("after-private");
    await peer.waitFor((a) => a.type === "Create" && named("标题 after-private")(a));
    expect(peer.received.some(named("标题 private"))).toBe(false);
    expect(
      (await fetch(`${base}/ap/articles/zh/private`, { headers: { accept: "application/activity+json" } })).status,
    ).toBe(404);

    // Turned off after it was sent: taken back with a Delete.
    await db.updateTable("posts").set({ federate: 0 }).where("id", "=", "covered").execute();
    const del = await peer.waitFor((a) => a.type === "Delete");
    expect(JSON.stringify(del.json.object)).toContain(`${base}/ap/articles/zh/covered`);

    // Every delivery so far is in the log as sent, to the peer's shared inbox.
    const peerHost = new URL(peer.url).host;
    // (The row is written once the peer has answered: a moment after it got the activity.)
    const sent = await until("four sent rows", async () => {
      const rows = await db.selectFrom("federationDeliveries").selectAll().where("outcome", "=", "sent").execute();
      return rows.length >= 4 ? rows : null;
    });
    expect(sent.every((r) => r.server === peerHost)).toBe(true);
    expect(sent.map((r) => r.activityType)).toEqual(expect.arrayContaining(["Accept", "Create", "Delete"]));

    // Down for a moment: the failed attempt is logged "retrying" with the status, the retry "sent".
    // (One attempt may knock twice, with each signature standard: two 503s, one attempt.)
    peer.failNext(2);
    await insertPost("flaky");
    await peer.waitFor((a) => a.type === "Create" && named("标题 flaky")(a));
    const flaky = await until("the retried delivery logged", async () => {
      const rows = await db
        .selectFrom("federationDeliveries")
        .select(["outcome", "status", "attempt"])
        .where("activityId", "like", "%/flaky#create")
        .orderBy("createdAt")
        .execute();
      return rows.some((r) => r.outcome === "sent") ? rows : null;
    });
    expect(flaky[0]).toMatchObject({ outcome: "retrying", status: 503 });
    expect(Number(flaky[0]?.attempt)).toBe(0);
    expect(flaky.at(-1)?.outcome).toBe("sent");
    expect(Number(flaky.at(-1)?.attempt)).toBeGreaterThan(0);
    // A success clears the server's failures (before its "sent" row is written).
    expect(await db.selectFrom("federationServers").selectAll().execute()).toEqual([]);

    // Down for good: after DEAD_AFTER_MS of failures the server is dead and skipped.
    peer.failNext(100_000);
    await insertPost("lost");
    await until("the server given up as dead", () =>
      db.selectFrom("federationServers").selectAll().where("deadSince", "is not", null).executeTakeFirst(),
    );
    const failedBefore = peer.failed();
    await insertPost("skipped");
    await until("a skipped delivery", () =>
      db.selectFrom("federationDeliveries").selectAll().where("outcome", "=", "skipped").executeTakeFirst(),
    );
    // Skipped: no request reached the peer for it.
    await new Promise((r) => setTimeout(r, 1000));
    expect(peer.failed()).toBe(failedBefore);

    // It comes back and speaks to us (a signed Follow): deliveries resume.
    peer.failNext(0);
    await peer.follow(zhActor);
    await until("the server revived", async () =>
      (await db.selectFrom("federationServers").selectAll().execute()).length === 0 ? true : null,
    );
    await insertPost("back");
    await peer.waitFor((a) => a.type === "Create" && named("标题 back")(a));
    expect(peer.received.some(named("标题 skipped"))).toBe(false);
  });
});
