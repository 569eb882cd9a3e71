import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { addBlock, addReaction, type RemoteActorInput, storeRemoteReply } from "../federation/inbound-store.server.ts";
import { addFollower } from "../federation/store.server.ts";
import { createPost } from "../posts/posts.server.ts";
import { insightFediverse } from "./fediverse.server.ts";
import { countKey, dayOf, daysBefore, writeInsightBatch } from "./metrics.server.ts";

// The Insights page's Fediverse reach: followers per account (new ones in the period),
// and per post the likes, boosts and replies of the period and the reads from the
// Article's link; blocked accounts and servers count for nothing.

let database: TestDatabase;
const today = dayOf(new Date());

const actor = (name: string, server = "social.example"): RemoteActorInput => ({
  uri: `https://${server}/users/${name}`,
  url: `https://${server}/@${name}`,
  handle: `@${name}@${server}`,
  name,
  avatarUrl: null,
  server,
});

const post = (slug: string, title: string) =>
  createPost(database.db, {
    slug,
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title }],
  });

const follower = (actorName: "zh" | "en", who: RemoteActorInput) =>
  addFollower(database.db, {
    actor: actorName,
    followerUri: who.uri,
    inboxUrl: `${who.uri}/inbox`,
    sharedInboxUrl: `https://${who.server}/inbox`,
    handle: who.handle,
    name: who.name,
    server: who.server,
  });

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

describe("insightFediverse", () => {
  it("counts followers, reactions, replies and Fediverse reads per post, leaving blocked ones out", async () => {
    const db = database.db;
    const liked = await post("liked", "Liked a lot");
    const read = await post("read", "Read from Mastodon");
    const [ann, bob, eve] = [actor("ann"), actor("bob"), actor("eve", "spam.example")];

    await follower("en", ann);
    await follower("en", bob);
    await follower("zh", ann);
    await follower("en", eve);
    // Ann's Chinese follow is older than the period.
    await db
      .updateTable("federationFollowers")
      .set({ createdAt: `${daysBefore(today, 40)}T12:00:00.000Z` })
      .where("actor", "=", "zh")
      .execute();

    await addReaction(db, { postId: liked, actor: ann, kind: "like", activityUri: "https://social.example/l/1" });
    await addReaction(db, { postId: liked, actor: bob, kind: "like", activityUri: "https://social.example/l/2" });
    await addReaction(db, { postId: liked, actor: bob, kind: "announce", activityUri: "https://social.example/a/1" });
    await addReaction(db, { postId: liked, actor: eve, kind: "like", activityUri: "https://spam.example/l/9" });
    // A like from before the period.
    await addReaction(db, { postId: read, actor: ann, kind: "like", activityUri: "https://social.example/l/3" });
    await db
      .updateTable("federationReactions")
      .set({ createdAt: `${daysBefore(today, 40)}T00:00:00.000Z` })
      .where("activityUri", "=", "https://social.example/l/3")
      .execute();

    for (const [n, who, status] of [
      [1, ann, "approved"],
      [2, bob, "pending"],
      [3, bob, "spam"],
      [4, eve, "approved"],
    ] as const) {
      await storeRemoteReply(db, {
        target: { postId: liked, parentId: null },
        noteUri: `https://${who.server}/notes/${n}`,
        noteUrl: `https://${who.server}/@${who.name}/${n}`,
        actor: who,
        bodyHtml: "<p>Nice</p>",
        bodyMarkdown: "Nice",
        status,
        createdAt: new Date().toISOString(),
      });
    }

    await writeInsightBatch(
      db,
      new Map([
        [countKey(today, "postSource", `${read} fediverse`), 4],
        [countKey(today, "postSource", `${read} newsletter`), 7],
        [countKey(daysBefore(today, 40), "postSource", `${liked} fediverse`), 9],
      ]),
      [],
    );
    await addBlock(db, "domain", "spam.example");

    // Most first: 5 for the liked post, 4 for the read one.
    const reach = await insightFediverse(db, daysBefore(today, 29), today, "en");
    expect(reach.followers).toEqual([
      { actor: "zh", total: 1, added: 0 },
      { actor: "en", total: 2, added: 2 },
    ]);
    expect(reach.posts).toEqual([
      { postId: liked, title: "Liked a lot", likes: 2, boosts: 1, replies: 2, reads: 0 },
      { postId: read, title: "Read from Mastodon", likes: 0, boosts: 0, replies: 0, reads: 4 },
    ]);

    // The longer period takes in the older like and reads.
    const year = await insightFediverse(db, daysBefore(today, 364), today, "en");
    expect(year.followers.find((f) => f.actor === "zh")).toEqual({ actor: "zh", total: 1, added: 1 });
    expect(year.posts.find((p) => p.postId === read)).toMatchObject({ likes: 1, reads: 4 });
    expect(year.posts.find((p) => p.postId === liked)).toMatchObject({ reads: 9 });
  });
});
