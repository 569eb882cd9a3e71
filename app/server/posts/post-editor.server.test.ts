import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAuthor, editorInput } from "../../../tests/setup/editing-user.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { EditorInput } from "../../lib/schemas/post.ts";
import { isUniqueViolation } from "../db/query.server.ts";
import { newId } from "../platform/ids.server.ts";
import { createCategory } from "../taxonomy/taxonomy.server.ts";
import { listMyPosts } from "./my-posts.server.ts";
import { createEditorPost, loadPostForEdit, type SaveResult, updateEditorPost } from "./post-editor.server.ts";
import { createPost } from "./posts.server.ts";
import { publishDuePosts } from "./publish-scheduled.server.ts";

// Long on purpose (~430 lines): create, update, conflicts, slugs and the author's
// list share one database and the input builders below.

let database: TestDatabase;
const ALICE = "author-alice";
const BOB = "author-bob";

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

function input(overrides: Partial<EditorInput> = {}): EditorInput {
  return editorInput({ body: "## Intro\n\nSome words." }, overrides);
}

function created(result: SaveResult): string {
  if (!result.ok) throw new Error(`expected a saved post, got ${JSON.stringify(result)}`);
  return result.id;
}

const countPosts = async (where: { slug?: string; id?: string }) => {
  let q = database.db.selectFrom("posts").select((eb) => eb.fn.countAll<number | string | bigint>().as("n"));
  if (where.slug) q = q.where("slug", "=", where.slug);
  if (where.id) q = q.where("id", "=", where.id);
  return Number((await q.executeTakeFirstOrThrow()).n);
};

describe(`post editor repository (${testDialect()})`, () => {
  it("creates a post with both languages, rendered bodies, tags and a cover", async () => {
    const category = await createCategory(database.db, { slug: "notes", nameEn: "Notes", nameZh: "笔记" });
    const id = created(
      await createEditorPost(
        database.db,
        ALICE,
        input({
          categoryId: category,
          tags: ["Kysely", "数据库"],
          coverImageUrl: "https://example.test/cover.jpg",
          coverAlt: "A cover",
          translations: [
            {
              locale: "en",
              title: "Hello World",
              summary: "Sum",
              bodyMarkdown: "## First\n\nHello **there**.",
              seoTitle: "SEO",
              seoDescription: null,
            },
            {
              locale: "zh",
              title: "你好",
              summary: "",
              bodyMarkdown: "中文正文",
              seoTitle: null,
              seoDescription: "描述",
            },
          ],
        }),
      ),
    );
    const post = await loadPostForEdit(database.db, id, asAuthor(ALICE));
    expect(post).toMatchObject({
      slug: "hello-world",
      status: "draft",
      publishedAt: null,
      version: 1,
      categoryId: category,
      coverImageUrl: "https://example.test/cover.jpg",
      coverAlt: "A cover",
    });
    expect(post?.tags.map((t) => t.nameEn).sort()).toEqual(["Kysely", "数据库"]);
    expect(post?.translations.en).toEqual({
      title: "Hello World",
      summary: "Sum",
      bodyMarkdown: "## First\n\nHello **there**.",
      seoTitle: "SEO",
      seoDescription: null,
    });
    expect(post?.translations.zh?.seoDescription).toBe("描述");
    const row = await database.db
      .selectFrom("postTranslations")
      .select(["bodyHtml", "tocJson", "readingMinutes"])
      .where("postId", "=", id)
      .where("locale", "=", "en")
      .executeTakeFirstOrThrow();
    expect(row.bodyHtml).toContain("<strong>there</strong>");
    expect(JSON.parse(row.tocJson)).toBeInstanceOf(Array);
    expect(Number(row.readingMinutes)).toBe(1);
  });

  it("hides a post from every other author: load and update say not found and change nothing", async () => {
    const id = created(await createEditorPost(database.db, ALICE, input({ slug: "alices-post" })));
    expect(await loadPostForEdit(database.db, id, asAuthor(BOB))).toBeNull();
    const attempt = await updateEditorPost(
      database.db,
      asAuthor(BOB),
      id,
      input({ version: 1, slug: "bobs-now", translations: [title("en", "Bob was here")] }),
    );
    expect(attempt).toEqual({ ok: false, reason: "notFound" });
    const post = await loadPostForEdit(database.db, id, asAuthor(ALICE));
    expect(post).toMatchObject({ slug: "alices-post", version: 1 });
    expect(post?.translations.en?.title).toBe("A title");
  });

  it("updates at the loaded version, bumps it, and answers a stale version with the current post", async () => {
    const id = created(await createEditorPost(database.db, ALICE, input({ slug: "versioned" })));
    const mine = input({ version: 1, slug: "versioned" });
    const first = await updateEditorPost(database.db, asAuthor(ALICE), id, {
      ...mine,
      translations: [title("en", "First edit")],
    });
    expect(first).toEqual({
      ok: true,
      id,
      version: 2,
      created: false,
      public: { before: false, after: false },
      moved: false,
    });
    const second = await updateEditorPost(database.db, asAuthor(ALICE), id, {
      ...mine,
      translations: [title("en", "Stale edit")],
    });
    expect(second.ok).toBe(false);
    if (second.ok || second.reason !== "conflict") throw new Error(`expected a conflict: ${JSON.stringify(second)}`);
    expect(second.current.version).toBe(2);
    expect(second.current.translations.en?.title).toBe("First edit");
    expect((await loadPostForEdit(database.db, id, asAuthor(ALICE)))?.translations.en?.title).toBe("First edit");
    // Overwriting with the current version works.
    expect(await updateEditorPost(database.db, asAuthor(ALICE), id, { ...mine, version: 2 })).toMatchObject({
      ok: true,
      version: 3,
    });
    // Whether readers saw it before and after the save (what the render cache must drop).
    const published = await updateEditorPost(database.db, asAuthor(ALICE), id, {
      ...mine,
      version: 3,
      status: "published",
    });
    expect(published).toMatchObject({ ok: true, public: { before: false, after: true } });
    const unpublished = await updateEditorPost(database.db, asAuthor(ALICE), id, {
      ...mine,
      version: 4,
      status: "draft",
    });
    expect(unpublished).toMatchObject({ ok: true, public: { before: true, after: false } });
  });

  it("tells a live post edited in place from one whose date, address, tags or languages changed", async () => {
    const live = {
      slug: "in-place",
      status: "published",
      publishAt: "2026-11-20T10:00:00.000Z",
      tags: ["keep"],
    } as const;
    const id = created(await createEditorPost(database.db, ALICE, input({ ...live, tags: [...live.tags] })));
    let version = 1;
    const save = async (overrides: Partial<EditorInput>) => {
      const result = await updateEditorPost(database.db, asAuthor(ALICE), id, {
        ...input({ ...live, tags: [...live.tags] }),
        version,
        ...overrides,
      });
      if (!result.ok) throw new Error(`save failed: ${JSON.stringify(result)}`);
      version = result.version;
      return result.moved;
    };
    // New words, a new cover: the post stays where it is listed.
    expect(await save({ translations: [title("en", "Better title")], coverImageUrl: "/cover.jpg" })).toBe(false);
    expect(await save({ tags: ["keep", "new"] })).toBe(true);
    expect(await save({ tags: ["new", "keep"] })).toBe(false);
    expect(await save({ tags: ["new", "keep"], translations: [title("en", "T"), title("zh", "标题")] })).toBe(true);
    expect(
      await save({ tags: ["new", "keep"], translations: [title("en", "T"), title("zh", "标题")], slug: "moved" }),
    ).toBe(true);
  });

  it("lets exactly one of two concurrent saves of the same version win", async () => {
    const id = created(await createEditorPost(database.db, ALICE, input()));
    const base = input({ version: 1 });
    const results = await Promise.all(
      ["Left", "Right"].map((text) =>
        updateEditorPost(database.db, asAuthor(ALICE), id, {
          ...base,
          translations: [title("en", text)],
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "conflict")).toHaveLength(1);
    expect((await loadPostForEdit(database.db, id, asAuthor(ALICE)))?.version).toBe(2);
  });

  it("replaces translations and tags: a removed language and tag are gone", async () => {
    const id = created(
      await createEditorPost(
        database.db,
        ALICE,
        input({
          tags: ["one", "two"],
          translations: [
            title("en", "Both"),
            { locale: "zh", title: "两者", summary: "", bodyMarkdown: "", seoTitle: null, seoDescription: null },
          ],
        }),
      ),
    );
    const result = await updateEditorPost(
      database.db,
      asAuthor(ALICE),
      id,
      input({
        version: 1,
        tags: ["two", "three"],
        translations: [
          { locale: "zh", title: "只有中文", summary: "", bodyMarkdown: "正文", seoTitle: null, seoDescription: null },
        ],
      }),
    );
    expect(result.ok).toBe(true);
    const post = await loadPostForEdit(database.db, id, asAuthor(ALICE));
    expect(Object.keys(post?.translations ?? {})).toEqual(["zh"]);
    expect(post?.translations.zh?.title).toBe("只有中文");
    expect(post?.tags.map((t) => t.nameEn).sort()).toEqual(["three", "two"]);
  });

  it("makes the slug from the English title, numbered when taken, random without one", async () => {
    const a = created(await createEditorPost(database.db, ALICE, input({ translations: [title("en", "Same Name")] })));
    const b = created(await createEditorPost(database.db, BOB, input({ translations: [title("en", "Same Name")] })));
    const c = created(await createEditorPost(database.db, ALICE, input({ translations: [title("zh", "只有中文")] })));
    const slugOf = async (id: string) =>
      (await database.db.selectFrom("posts").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;
    expect(await slugOf(a)).toBe("same-name");
    expect(await slugOf(b)).toBe("same-name-2");
    expect(await slugOf(c)).toMatch(/^post-[0-9a-z]{8}$/);
  });

  it("refuses a typed slug another post has, on create and update, as a field error", async () => {
    await createEditorPost(database.db, ALICE, input({ slug: "taken" }));
    expect(await createEditorPost(database.db, BOB, input({ slug: "taken" }))).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { slug: "editor:errors.slugTaken" },
    });
    const id = created(await createEditorPost(database.db, ALICE, input({ slug: "free" })));
    expect(await updateEditorPost(database.db, asAuthor(ALICE), id, input({ version: 1, slug: "taken" }))).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { slug: "editor:errors.slugTaken" },
    });
    // Keeping its own slug is fine.
    expect((await updateEditorPost(database.db, asAuthor(ALICE), id, input({ version: 1, slug: "free" }))).ok).toBe(
      true,
    );
  });

  it("lets one of two concurrent creates with the same slug win; the other gets the field error and writes nothing", async () => {
    const results = await Promise.all([
      createEditorPost(database.db, ALICE, input({ slug: "race", tags: ["race-tag-left"] })),
      createEditorPost(database.db, BOB, input({ slug: "race", tags: ["race-tag-right"] })),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([
      { ok: false, reason: "invalid", fieldErrors: { slug: "editor:errors.slugTaken" } },
    ]);
    expect(await countPosts({ slug: "race" })).toBe(1);
    // The loser's new tag was not left behind.
    const tags = await database.db.selectFrom("tags").select("nameEn").where("nameEn", "like", "race-tag-%").execute();
    expect(tags).toHaveLength(1);
  });

  it("recognises this database's unique violations (slug and primary key), and nothing else", async () => {
    const id = created(await createEditorPost(database.db, ALICE, input({ slug: "unique-probe" })));
    const insert = (values: { id: string; slug: string }) =>
      createPost(database.db, {
        ...values,
        authorId: ALICE,
        status: "draft",
        publishedAt: null,
        translations: [title("en", "x")],
      });
    const errorOf = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e,
      );
    expect(isUniqueViolation(await errorOf(insert({ id: newId(), slug: "unique-probe" })))).toBe(true);
    expect(isUniqueViolation(await errorOf(insert({ id, slug: "another-slug" })))).toBe(true);
    const notUnique = await errorOf(
      database.db.insertInto("postTags").values({ postId: "missing", tagId: "missing" }).execute(),
    );
    expect(notUnique).not.toBeNull();
    expect(isUniqueViolation(notUnique)).toBe(false);
  });

  it("creates one post for two submits of the same form (the idempotency key)", async () => {
    const key = newId();
    const results = await Promise.all([
      createEditorPost(database.db, ALICE, input({ key, slug: "double-click" })),
      createEditorPost(database.db, ALICE, input({ key, slug: "double-click" })),
    ]);
    expect(results).toContainEqual({
      ok: true,
      id: key,
      version: 1,
      created: true,
      public: { before: false, after: false },
      moved: true,
    });
    expect(results).toContainEqual({ ok: false, reason: "duplicate", id: key });
    expect(await countPosts({ id: key })).toBe(1);
    // Later, too.
    expect(await createEditorPost(database.db, ALICE, input({ key }))).toEqual({
      ok: false,
      reason: "duplicate",
      id: key,
    });
    // Someone else's key is not a way into the post.
    const other = await createEditorPost(database.db, BOB, input({ key }));
    expect(other).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("refuses an unknown category and writes nothing", async () => {
    const key = newId();
    expect(await createEditorPost(database.db, ALICE, input({ key, categoryId: "nope" }))).toEqual({
      ok: false,
      reason: "invalid",
      fieldErrors: { categoryId: "editor:errors.categoryUnknown" },
    });
    expect(await countPosts({ id: key })).toBe(0);
  });

  it("publishes without a time as now, keeps a scheduled time, and keeps the stored precision", async () => {
    const before = Date.now();
    const id = created(await createEditorPost(database.db, ALICE, input({ status: "published" })));
    const post = await loadPostForEdit(database.db, id, asAuthor(ALICE));
    expect(Date.parse(post?.publishedAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
    // The form shows minutes: resubmitting the shown minute keeps the stored instant.
    const shown = new Date(Math.floor(Date.parse(post?.publishedAt ?? "") / 60_000) * 60_000).toISOString();
    await updateEditorPost(
      database.db,
      asAuthor(ALICE),
      id,
      input({ version: 1, status: "published", publishAt: shown }),
    );
    expect((await loadPostForEdit(database.db, id, asAuthor(ALICE)))?.publishedAt).toBe(post?.publishedAt);

    const later = new Date(Date.now() + 3_600_000).toISOString();
    const s = created(await createEditorPost(database.db, ALICE, input({ status: "scheduled", publishAt: later })));
    expect(await loadPostForEdit(database.db, s, asAuthor(ALICE))).toMatchObject({
      status: "scheduled",
      publishedAt: later,
    });
  });

  it("lists my posts of every status, newest update first, filtered, paginated, without the trash", async () => {
    const me = `lister-${newId()}`;
    const ids: string[] = [];
    for (const [i, status] of (["draft", "published", "scheduled", "draft"] as const).entries()) {
      const publishAt = status === "scheduled" ? new Date(Date.now() + 86_400_000).toISOString() : null;
      ids.push(
        created(
          await createEditorPost(
            database.db,
            me,
            input({ status, publishAt, translations: [title(i === 3 ? "zh" : "en", `Mine ${i}`)] }),
          ),
        ),
      );
      await new Promise((r) => setTimeout(r, 5));
    }
    await createEditorPost(database.db, `someone-else-${newId()}`, input());
    const trashed = created(await createEditorPost(database.db, me, input()));
    await database.db
      .updateTable("posts")
      .set({ deletedAt: new Date().toISOString() })
      .where("id", "=", trashed)
      .execute();

    const all = await listMyPosts(database.db, { authorId: me, locale: "en", page: 1, pageSize: 10 });
    expect(all.total).toBe(4);
    expect(all.counts).toEqual({ all: 4, draft: 2, published: 1, scheduled: 1 });
    expect(all.items.map((p) => p.id)).toEqual([...ids].reverse());
    expect(all.items[0]).toMatchObject({ title: "Mine 3", titleLocale: "zh", isFallback: true });
    expect(all.items[1]).toMatchObject({ title: "Mine 2", titleLocale: "en", isFallback: false, status: "scheduled" });

    const drafts = await listMyPosts(database.db, {
      authorId: me,
      locale: "en",
      status: "draft",
      page: 1,
      pageSize: 10,
    });
    expect(drafts.items.map((p) => p.id)).toEqual([ids[3], ids[0]]);
    expect(drafts.total).toBe(2);

    const page2 = await listMyPosts(database.db, { authorId: me, locale: "en", page: 2, pageSize: 3 });
    expect(page2.items.map((p) => p.id)).toEqual([ids[0]]);
    expect(page2.pageCount).toBe(2);

    // Editing moves a post to the top.
    await updateEditorPost(database.db, asAuthor(me), ids[1] ?? "", input({ version: 1, status: "published" }));
    const again = await listMyPosts(database.db, { authorId: me, locale: "en", page: 1, pageSize: 1 });
    expect(again.items[0]?.id).toBe(ids[1]);
  });

  it("does not edit a trashed post", async () => {
    const id = created(await createEditorPost(database.db, ALICE, input()));
    await database.db.updateTable("posts").set({ deletedAt: new Date().toISOString() }).where("id", "=", id).execute();
    expect(await loadPostForEdit(database.db, id, asAuthor(ALICE))).toBeNull();
    expect(await updateEditorPost(database.db, asAuthor(ALICE), id, input({ version: 1 }))).toEqual({
      ok: false,
      reason: "notFound",
    });
  });
});

describe(`scheduled publishing (${testDialect()})`, () => {
  it("publishes due scheduled posts once, bumping their version, and leaves the rest", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const due = created(await createEditorPost(database.db, ALICE, input({ status: "scheduled", publishAt: soon })));
    const later = created(
      await createEditorPost(
        database.db,
        ALICE,
        input({ status: "scheduled", publishAt: new Date(Date.now() + 3_600_000).toISOString() }),
      ),
    );
    const trashed = created(
      await createEditorPost(database.db, ALICE, input({ status: "scheduled", publishAt: soon })),
    );
    await database.db
      .updateTable("posts")
      .set({ deletedAt: new Date().toISOString() })
      .where("id", "=", trashed)
      .execute();

    const at = new Date(Date.now() + 120_000);
    // Two instances at once: every post is published by exactly one of them.
    const [a, b] = await Promise.all([publishDuePosts(database.db, at), publishDuePosts(database.db, at)]);
    expect([...(a ?? []), ...(b ?? [])].filter((id) => [due, later, trashed].includes(id))).toEqual([due]);
    expect(await loadPostForEdit(database.db, due, asAuthor(ALICE))).toMatchObject({
      status: "published",
      publishedAt: soon,
      version: 2,
    });
    expect((await loadPostForEdit(database.db, later, asAuthor(ALICE)))?.status).toBe("scheduled");
    expect(await publishDuePosts(database.db, at)).toEqual([]);
  });

  it("starts the newsletter of a scheduled post with the box ticked when it goes live, once", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    const mailed = created(
      await createEditorPost(database.db, ALICE, input({ status: "scheduled", publishAt: soon, newsletter: true })),
    );
    const quiet = created(await createEditorPost(database.db, ALICE, input({ status: "scheduled", publishAt: soon })));
    expect(await sendsOf(mailed)).toBe(0);
    const at = new Date(Date.now() + 120_000);
    await Promise.all([publishDuePosts(database.db, at), publishDuePosts(database.db, at)]);
    expect(await sendsOf(mailed)).toBe(1);
    expect(await sendsOf(quiet)).toBe(0);
    expect((await loadPostForEdit(database.db, mailed, asAuthor(ALICE)))?.newsletterSent).toBe(true);
  });
});

describe(`the editor's newsletter box (${testDialect()})`, () => {
  it("starts a send when a post first goes live with the box ticked, and never for a live post's edits", async () => {
    const direct = created(
      await createEditorPost(database.db, ALICE, input({ status: "published", newsletter: true })),
    );
    expect(await sendsOf(direct)).toBe(1);

    const draft = created(await createEditorPost(database.db, ALICE, input({ newsletter: true })));
    expect(await sendsOf(draft)).toBe(0);
    expect((await loadPostForEdit(database.db, draft, asAuthor(ALICE)))?.newsletter).toBe(true);
    const live = await updateEditorPost(
      database.db,
      asAuthor(ALICE),
      draft,
      input({ version: 1, status: "published", newsletter: true }),
    );
    expect(live.ok).toBe(true);
    expect(await sendsOf(draft)).toBe(1);

    // Published without the box: later saves of the live post never mail it, whatever the form says.
    const plain = created(await createEditorPost(database.db, ALICE, input({ status: "published" })));
    const edit = await updateEditorPost(
      database.db,
      asAuthor(ALICE),
      plain,
      input({ version: 1, status: "published", newsletter: true }),
    );
    expect(edit.ok).toBe(true);
    expect(await sendsOf(plain)).toBe(0);
    expect((await loadPostForEdit(database.db, plain, asAuthor(ALICE)))?.newsletter).toBe(false);
  });
});

async function sendsOf(postId: string): Promise<number> {
  const rows = await database.db.selectFrom("newsletterSends").select("id").where("postId", "=", postId).execute();
  return rows.length;
}

function title(locale: "en" | "zh", text: string) {
  return { locale, title: text, summary: "", bodyMarkdown: "", seoTitle: null, seoDescription: null };
}
