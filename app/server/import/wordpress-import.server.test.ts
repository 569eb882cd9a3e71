import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images.ts";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../tests/setup/import-bed.ts";
import { importedPost } from "../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { listCommentsForModeration } from "../comments/comment-moderation.server.ts";
import { listComments } from "../comments/comments.server.ts";
import { listRevisions } from "../posts/revisions.server.ts";
import { getPostImport } from "./job/report.server.ts";
import type { SourceRead } from "./markdown-folder.server.ts";
import { loadWxr, parseWxr } from "./wordpress/wxr.server.ts";
import { readWxr, WORDPRESS_SOURCE } from "./wordpress.server.ts";

// The WordPress import end to end on a repository level (both dialects): tests/fixtures/wordpress/export.xml
// with an uploads folder made in a temporary folder (the kettle is there, the cups are not).

const EXPORT = path.resolve(import.meta.dirname, "../../../tests/fixtures/wordpress/export.xml");
let bed: ImportBed;
let database: TestDatabase;

const runImport = async (given?: SourceRead) =>
  bed.runImport({ kind: WORDPRESS_SOURCE, label: EXPORT, read: given ?? readWxr(await loadWxr(EXPORT)) }, { chunk: 3 });
const postOf = (sourceId: string) => importedPost(database.db, WORDPRESS_SOURCE, sourceId);
const count: ImportBed["count"] = (table) => bed.count(table);

beforeAll(async () => {
  bed = await createImportBed("wp", { email: "wp-importer@example.test" });
  database = bed.database;
  // The folder given is WordPress's wp-content: uploads/… under it.
  await mkdir(path.join(bed.root, "uploads/2021/03"), { recursive: true });
  await writeFile(path.join(bed.root, "uploads/2021/03/kettle.png"), await png(64, 48));
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`importing a WordPress export (${testDialect()})`, () => {
  it("imports posts, pages, drafts and the Polylang pair with their content and images", async () => {
    const id = await runImport();
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({
      status: "done",
      total: 10,
      // Seven posts; the three pages are pages (decision 035), counted apart.
      imported: 7,
      pages: 3,
      failed: 0,
      // 100, 101, 102 on the green tea post; 110 on the Chinese half of the pair.
      commentsAdded: 4,
      imagesStored: 1,
      // The gallery's cups are not in the uploads folder.
      imagesMissing: 1,
    });
    expect(job?.report).toContainEqual(
      expect.objectContaining({ reason: "wpShortcodeKept", detail: "[contact-form-7]" }),
    );
    expect(job?.report).toContainEqual(expect.objectContaining({ reason: "wpTrash" }));
    expect(await count("posts")).toBe(7);

    const tea = await postOf("20");
    const [media] = await database.db.selectFrom("media").select("id").execute();
    expect(tea.post).toMatchObject({ slug: "brew-green-tea", status: "published" });
    expect(tea.post.coverImageUrl).toContain(`/media/${media?.id}/`);
    const en = tea.translations[0];
    expect(en?.bodyMarkdown).toContain(`![kettle](/media/${media?.id}/`);
    expect(en?.bodyMarkdown).toContain("https://tea.example/wp-content/uploads/2021/03/cups.png");
    expect(en?.bodyHtml).toContain("<strong>80°C</strong>");
    expect(en?.bodyHtml).not.toMatch(/<script|javascript:/i);
    const category = await database.db
      .selectFrom("categories")
      .select("nameEn")
      .where("id", "=", tea.post.categoryId ?? "")
      .executeTakeFirstOrThrow();
    expect(category.nameEn).toBe("Green tea");
    const tags = await database.db
      .selectFrom("postTags as pt")
      .innerJoin("tags as t", "t.id", "pt.tagId")
      .select("t.nameEn")
      .where("pt.postId", "=", tea.post.id)
      .execute();
    expect(tags.map((t) => t.nameEn).sort()).toEqual(["Brewing", "Tea"]);

    const pair = await postOf("30+31");
    expect(pair.translations.map((t) => [t.locale, t.title])).toEqual([
      ["en", "Oolong notes"],
      ["zh", "乌龙茶笔记"],
    ]);
    expect((await postOf("60")).post.status).toBe("draft");
    expect((await postOf("61")).post.status).toBe("draft");
    expect((await postOf("62")).post.status).toBe("scheduled");
    // Each post is its WordPress author's: Mei and Tom got author accounts (neither address is one here).
    const byName = new Map(
      (await database.db.selectFrom("users").select(["id", "name"]).execute()).map((u) => [u.name, u.id]),
    );
    expect(tea.post.authorId).toBe(byName.get("Mei Lin"));
    expect(byName.has("Tom Reed")).toBe(true);
  });

  it("keeps comments with their replies and approval state, under the names their writers gave", async () => {
    const tea = await postOf("20");
    const seen = await listComments(database.db, tea.post.id, null);
    expect(seen.map((c) => [c.authorName, c.status, c.replies.map((r) => [r.authorName, r.status])])).toEqual([
      ["Ann Reader", "approved", [["Mei Lin", "approved"]]],
    ]);
    const all = await database.db
      .selectFrom("comments")
      .select(["status", "guestName", "guestEmail", "guestUrl", "parentId", "authorId", "createdAt"])
      .where("postId", "=", tea.post.id)
      .orderBy("createdAt")
      .execute();
    expect(all.map((c) => c.status)).toEqual(["approved", "approved", "pending"]);
    expect(all[0]).toMatchObject({
      guestName: "Ann Reader",
      guestEmail: "ann@reader.example",
      guestUrl: "https://ann.example",
      authorId: null,
      parentId: null,
      createdAt: "2021-03-05T02:00:00.000Z",
    });
    expect(await count("comments")).toBe(4);
    // The moderator sees the held reply under the name and e-mail given, and finds it by that e-mail.
    const held = await listCommentsForModeration(database.db, {
      status: "pending",
      page: 1,
      pageSize: 10,
      locale: "en",
      q: "ann@reader",
    });
    expect(held.items.map((c) => [c.authorName, c.authorEmail, c.excerpt])).toEqual([
      ["Ann Reader", "ann@reader.example", "Reply to a reply, waiting for approval."],
    ]);
  });

  it("keeps WordPress revisions as the post's history, oldest first, before the import's own", async () => {
    const tea = await postOf("20");
    const revisions = await listRevisions(database.db, tea.post.id);
    const dates = revisions.map((r) => r.createdAt).sort();
    expect(dates.slice(0, 2)).toEqual(["2021-03-01T01:00:00.000Z", "2021-03-02T01:00:00.000Z"]);
    expect(revisions).toHaveLength(3);
  });

  it("redirects /?p=ID, the old permalinks, /tag/{slug}/ and /category/{path}/ with a 301", async () => {
    const teaPost = await postOf("20");
    const pair = await postOf("30+31");
    await withRedirectServer(database.db, async (base) => {
      for (const [from, to] of [
        ["/?p=20", `/posts/detail/${teaPost.post.id}`],
        ["/2021/03/04/brew-green-tea/", `/posts/detail/${teaPost.post.id}`],
        ["/brew-green-tea/", `/posts/detail/${teaPost.post.id}`],
        ["/?p=31", `/posts/detail/${pair.post.id}`],
        ["/zh/2021/04/oolong-zh/", `/zh/posts/detail/${pair.post.id}`],
      ] as const) {
        const res = await fetch(`${base}${from}`, { redirect: "manual" });
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
      }
      const brewing = await database.db
        .selectFrom("tags")
        .select("slug")
        .where("nameEn", "=", "Brewing")
        .executeTakeFirstOrThrow();
      const tea = await database.db
        .selectFrom("tags")
        .select("slug")
        .where("nameEn", "=", "Tea")
        .executeTakeFirstOrThrow();
      const green = await database.db
        .selectFrom("categories")
        .select("slug")
        .where("nameEn", "=", "Green tea")
        .executeTakeFirstOrThrow();
      const mei = await database.db
        .selectFrom("users")
        .select(["handle", "email", "emailVerified"])
        .where("id", "=", teaPost.post.authorId ?? "")
        .executeTakeFirstOrThrow();
      // An author account without login: no address of Mei's on it, none that can receive mail.
      expect(mei.email).toMatch(/@authors\.invalid$/);
      expect(mei.emailVerified).toBe(0);
      // The comments feed has nothing to go to here.
      expect((await fetch(`${base}/comments/feed/`, { redirect: "manual" })).status).toBe(404);
      for (const [from, to] of [
        ["/tag/brewing/", `/tags/${brewing.slug}`],
        ["/category/tea/green-tea/", `/categories/${green.slug}`],
        ["/category/tea/", `/tags/${tea.slug}`],
        // The blog's feeds, its own and under Polylang's prefixes.
        ["/feed/", "/rss.xml"],
        ["/feed/rss2/", "/rss.xml"],
        ["/feed/atom/", "/atom.xml"],
        ["/zh/feed/", "/zh/rss.xml"],
        // WordPress's author pages: the login, to the author page of the account made for Mei.
        ["/author/mei/", `/authors/${mei.handle}`],
      ] as const) {
        const res = await fetch(`${base}${from}`, { redirect: "manual" });
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
      }
    });
  });

  it("a second run of the same export adds nothing", async () => {
    const tables = [
      "posts",
      "postTranslations",
      "pages",
      "pageRevisions",
      "media",
      "redirects",
      "tags",
      "categories",
      "comments",
      "postRevisions",
    ] as const;
    const before = await Promise.all(tables.map(count));
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({
      imported: 0,
      updated: 0,
      pages: 0,
      skipped: 10,
      commentsAdded: 0,
    });
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });

  it("a new comment in a later export is added to the unchanged-elsewhere post, sanitised, nothing else twice", async () => {
    const before = {
      comments: await count("comments"),
      revisions: await count("postRevisions"),
      posts: await count("posts"),
    };
    const hostile = `<wp:comment><wp:comment_id>106</wp:comment_id><wp:comment_author><![CDATA[<b>Mallory</b>]]></wp:comment_author>
      <wp:comment_author_url>javascript:alert(3)</wp:comment_author_url><wp:comment_date_gmt>2021-03-07 00:00:00</wp:comment_date_gmt>
      <wp:comment_content><![CDATA[<script>alert(1)</script><a href="javascript:alert(2)">click</a> <strong>fine</strong>]]></wp:comment_content>
      <wp:comment_approved>1</wp:comment_approved><wp:comment_parent>0</wp:comment_parent></wp:comment>`;
    // Added before the post's first comment.
    const original = await readFile(EXPORT, "utf8");
    const at = original.indexOf("<wp:comment>");
    const text = `${original.slice(0, at)}${hostile}${original.slice(at)}`;
    const id = await runImport(readWxr(await parseWxr([text])));
    expect(await getPostImport(database.db, id)).toMatchObject({
      imported: 0,
      updated: 1,
      skipped: 9,
      commentsAdded: 1,
    });
    expect(await count("posts")).toBe(before.posts);
    expect(await count("comments")).toBe(before.comments + 1);
    // The update's own revision; WordPress's two are not written again.
    expect(await count("postRevisions")).toBe(before.revisions + 1);
    const added = await database.db
      .selectFrom("comments")
      .select(["bodyHtml", "guestName", "guestUrl", "status"])
      .where("guestName", "=", "Mallory")
      .executeTakeFirstOrThrow();
    expect(added).toMatchObject({ guestUrl: null, status: "approved" });
    expect(added.bodyHtml).toContain("<strong>fine</strong>");
    expect(added.bodyHtml).not.toMatch(/<script|javascript:|alert\(1\)/i);
  });
});
