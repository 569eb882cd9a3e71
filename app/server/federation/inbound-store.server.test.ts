import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { listComments } from "../comments/comments.server.ts";
import { nowIso } from "../db/db.server.ts";
import { findPostDetail } from "../posts/post-detail.server.ts";
import { createPost } from "../posts/posts.server.ts";
import {
  addBlock,
  addReaction,
  reactionCounts as countReactions,
  deleteRemoteReply,
  domainAndParents,
  isBlocked,
  listBlocks,
  type RemoteActorInput,
  removeBlock,
  removeReaction,
  replyTargetOfNote,
  storeRemoteReply,
  updateRemoteReply,
} from "./inbound-store.server.ts";
import { addFollower, countFollowers, followerRecipients } from "./store.server.ts";

/** A post's reactions, as counted alone and as its page reads them with the post: the same. */
async function reactionCounts(on: Parameters<typeof countReactions>[0], postId: string) {
  const alone = await countReactions(on, postId);
  expect((await findPostDetail(on, postId, "en"))?.reactions).toEqual(alone);
  return alone;
}

function remote(user: string, server = "social.example"): RemoteActorInput {
  return {
    uri: `https://${server}/users/${user}`,
    url: `https://${server}/@${user}`,
    handle: `@${user}@${server}`,
    name: user.toUpperCase(),
    avatarUrl: null,
    server,
  };
}

describe(`Fediverse replies, reactions and blocks (${testDialect()})`, () => {
  let database: TestDatabase;
  let postId: string;
  let counter = 0;
  const db = () => database.db;

  const newPost = () =>
    createPost(database.db, {
      slug: `fi-post-${++counter}`,
      authorId: null,
      status: "published",
      publishedAt: "2026-11-01T00:00:00.000Z",
      translations: [{ locale: "en", title: `Post ${counter}` }],
    });

  const reply = (actor: RemoteActorInput, note: string, target: { postId: string; parentId: string | null }) =>
    storeRemoteReply(db(), {
      target,
      noteUri: note,
      noteUrl: `${note}/page`,
      actor,
      bodyHtml: `<p>${note}</p>`,
      bodyMarkdown: note,
      status: "approved",
      createdAt: nowIso(),
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    postId = await newPost();
  });
  afterAll(async () => {
    await database.cleanup();
  });

  it("stores a reply once per note, nests replies to replies one level deep, edits and deletes only for its author", async () => {
    const ann = remote("ann");
    const first = await reply(ann, "https://social.example/notes/1", { postId, parentId: null });
    expect(first).not.toBeNull();
    // A replay stores nothing.
    expect(await reply(ann, "https://social.example/notes/1", { postId, parentId: null })).toBeNull();
    const target = await replyTargetOfNote(db(), "https://social.example/notes/1");
    expect(target).toEqual({ postId, parentId: first });
    const second = await reply(remote("ben"), "https://social.example/notes/2", target ?? { postId, parentId: null });
    // A reply to the reply goes under the same top-level comment.
    expect(await replyTargetOfNote(db(), "https://social.example/notes/2")).toEqual({ postId, parentId: first });

    const listed = await listComments(db(), postId, null);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: first,
      authorName: "ANN",
      remote: { handle: "@ann@social.example", url: "https://social.example/notes/1/page" },
    });
    expect(listed[0]?.replies.map((r) => r.id)).toEqual([second]);

    const edit = {
      noteUri: "https://social.example/notes/1",
      bodyHtml: "<p>new</p>",
      bodyMarkdown: "new",
      noteUrl: "x",
    };
    expect(await updateRemoteReply(db(), { ...edit, actorUri: remote("ben").uri })).toBeNull();
    expect(await updateRemoteReply(db(), { ...edit, actorUri: ann.uri })).toBe(postId);
    expect(await deleteRemoteReply(db(), "https://social.example/notes/1", remote("ben").uri)).toBeNull();
    expect(await deleteRemoteReply(db(), "https://social.example/notes/1", ann.uri)).toBe(postId);
    // Its replies go with it.
    expect(await listComments(db(), postId, null)).toEqual([]);
  });

  it("counts a like and a boost once per account, and undoes them by activity or by post", async () => {
    const post = await newPost();
    const cat = remote("cat");
    expect(await addReaction(db(), { postId: post, actor: cat, kind: "like", activityUri: "https://s/l1" })).toBe(true);
    expect(await addReaction(db(), { postId: post, actor: cat, kind: "like", activityUri: "https://s/l2" })).toBe(
      false,
    );
    await addReaction(db(), { postId: post, actor: remote("dan"), kind: "like", activityUri: "https://s/l3" });
    await addReaction(db(), { postId: post, actor: cat, kind: "announce", activityUri: "https://s/b1" });
    expect(await reactionCounts(db(), post)).toEqual({ likes: 2, boosts: 1 });
    // Someone else's Undo of cat's like changes nothing.
    const undoByOther = {
      actorUri: remote("dan").uri,
      kind: "like" as const,
      activityUri: "https://s/l1",
      postId: null,
    };
    expect(await removeReaction(db(), undoByOther)).toBeNull();
    expect(await removeReaction(db(), { ...undoByOther, actorUri: cat.uri })).toBe(post);
    // An Undo naming an unknown activity falls back to the post and kind.
    expect(
      await removeReaction(db(), { actorUri: cat.uri, kind: "announce", activityUri: "https://s/other", postId: post }),
    ).toBe(post);
    expect(await reactionCounts(db(), post)).toEqual({ likes: 1, boosts: 0 });
  });

  it("blocks an actor or a domain with its subdomains and any port, and nothing that only looks alike", async () => {
    expect(domainAndParents("a.B.example")).toEqual(["a.b.example", "b.example", "example"]);
    const actorBlock = await addBlock(db(), "actor", "https://one.example/users/eve");
    // Blocking twice keeps one block.
    expect(await addBlock(db(), "actor", "https://one.example/users/eve")).toBe(actorBlock);
    const domainBlock = await addBlock(db(), "domain", "spam.example");
    expect(await isBlocked(db(), "https://one.example/users/eve")).toBe(true);
    expect(await isBlocked(db(), "https://one.example/users/evelyn")).toBe(false);
    expect(await isBlocked(db(), "https://spam.example/users/x")).toBe(true);
    expect(await isBlocked(db(), "https://m.spam.example:8443/users/x")).toBe(true);
    expect(await isBlocked(db(), "https://notspam.example/users/x")).toBe(false);
    expect(await isBlocked(db(), "https://spam.example.org/users/x")).toBe(false);
    expect(await isBlocked(db(), "not a url")).toBe(true);
    expect((await listBlocks(db())).map((b) => `${b.kind}:${b.value}`)).toEqual([
      "actor:https://one.example/users/eve",
      "domain:spam.example",
    ]);
    expect(await removeBlock(db(), domainBlock)).toMatchObject({ kind: "domain", value: "spam.example" });
    expect(await removeBlock(db(), domainBlock)).toBeNull();
    expect(await isBlocked(db(), "https://spam.example/users/x")).toBe(false);
    await removeBlock(db(), actorBlock);
  });

  it("hides blocked accounts' replies and reactions and leaves them out of deliveries, until unblocked", async () => {
    const post = await newPost();
    const fay = remote("fay", "bad.example");
    const gus = remote("gus", "good.example");
    await reply(fay, "https://bad.example/notes/1", { postId: post, parentId: null });
    await reply(gus, "https://good.example/notes/1", { postId: post, parentId: null });
    await addReaction(db(), { postId: post, actor: fay, kind: "like", activityUri: "https://bad.example/l" });
    await addReaction(db(), { postId: post, actor: gus, kind: "like", activityUri: "https://good.example/l" });
    for (const f of [fay, gus]) {
      await addFollower(db(), {
        actor: "en",
        followerUri: f.uri,
        inboxUrl: `${f.uri}/inbox`,
        sharedInboxUrl: null,
        handle: f.handle,
        name: f.name,
        server: `${f.server}:443`,
      });
    }
    const block = await addBlock(db(), "domain", "bad.example");
    expect((await listComments(db(), post, null)).map((c) => c.authorName)).toEqual(["GUS"]);
    expect(await reactionCounts(db(), post)).toEqual({ likes: 1, boosts: 0 });
    expect((await followerRecipients(db(), "en", 0, 100)).map((r) => r.followerUri)).toEqual([gus.uri]);
    expect(await countFollowers(db(), "en")).toBe(1);

    await removeBlock(db(), block);
    expect((await listComments(db(), post, null)).map((c) => c.authorName).sort()).toEqual(["FAY", "GUS"]);
    expect(await reactionCounts(db(), post)).toEqual({ likes: 2, boosts: 0 });
    expect(await countFollowers(db(), "en")).toBe(2);
  });
});
