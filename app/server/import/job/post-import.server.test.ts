import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../../tests/fixtures/images.ts";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../../tests/setup/import-bed.ts";
import { importedPost } from "../../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../../tests/setup/test-db.ts";
import { localImageResolver } from "../images.server.ts";
import { MARKDOWN_SOURCE, readMarkdownFolder } from "../markdown-folder.server.ts";
import { planPostImport } from "./dry-run.server.ts";
import { queuePostImport, unfinishedImportOf } from "./queue.server.ts";
import { getPostImport } from "./report.server.ts";

// The Markdown-folder import end to end on a repository level (both dialects): the fixture blog
// in tests/fixtures/markdown-blog, copied to a temporary folder with a generated image.

const FIXTURE = path.resolve(import.meta.dirname, "../../../../tests/fixtures/markdown-blog");
const MAX_BYTES = 10 * 1024 * 1024;
let bed: ImportBed;
let database: TestDatabase;
let root: string;
let author: ImportBed["author"];

const runImport = async (opts: { chunk?: number; maxChunks?: number } = {}) =>
  bed.runImport(
    { kind: MARKDOWN_SOURCE, label: root, read: await readMarkdownFolder(root), resume: true },
    { maxChunks: 200, ...opts },
  );
const drain = (opts: { chunk?: number; maxChunks?: number } = {}) => bed.drain({ maxChunks: 200, ...opts });
const count: ImportBed["count"] = (table) => bed.count(table);
const postOf = (sourceId: string) => importedPost(database.db, MARKDOWN_SOURCE, sourceId);

beforeAll(async () => {
  bed = await createImportBed("md", { email: "importer@example.test" });
  ({ database, root, author } = bed);
  await cp(FIXTURE, root, { recursive: true });
  await writeFile(path.join(root, "content/posts/pic.png"), await png(64, 48));
  // A file past the size limit, made here rather than kept in the repository.
  await writeFile(path.join(root, "plain/huge.md"), `---\ntitle: Huge\n---\n${"x".repeat(1024 * 1024 + 10)}`);
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`importing a Markdown folder (${testDialect()})`, () => {
  it("a dry run reports what would happen and writes nothing", async () => {
    const read = await readMarkdownFolder(root);
    const plan = await planPostImport(database.db, {
      kind: MARKDOWN_SOURCE,
      read,
      images: localImageResolver(root, MAX_BYTES),
    });
    expect(plan.counts).toMatchObject({ total: 9, imported: 9, failed: 3, imagesMissing: 2 });
    expect(await count("posts")).toBe(0);
    expect(await count("media")).toBe(0);
  });

  it("imports every post once, pairs the languages, stores images and reports the rest", async () => {
    // A chunk of 2 posts: several transactions, as a large import has.
    const id = await runImport({ chunk: 2 });
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({
      status: "done",
      total: 9,
      processed: 9,
      imported: 9,
      updated: 0,
      skipped: 0,
      failed: 3,
      imagesStored: 1,
      imagesMissing: 2,
    });
    expect(await count("posts")).toBe(9);
    // Three bilingual posts (suffixes, folders, Hexo lang + slug), six in one language.
    expect(await count("postTranslations")).toBe(12);
    expect(await count("media")).toBe(1);
    const reasons = job?.report.map((l) => `${l.outcome}:${l.reason ?? ""}:${l.item}`) ?? [];
    expect(reasons).toEqual(
      expect.arrayContaining([
        "failed:frontMatterAliases:hostile/bomb.md",
        "failed:frontMatterUnclosed:hostile/broken.md",
        "failed:fileTooLarge:plain/huge.md",
        "ambiguous:pairingAmbiguous:content/posts/twin.en.md + content/posts/twin.md",
        "imageMissing:notFound:content/posts/hello.en.md",
        "imageMissing:outside:hostile/xss.md",
      ]),
    );
  });

  it("keeps the content: both languages, dates, tags, category, cover and uploaded images", async () => {
    const { post, translations } = await postOf("content/posts/hello");
    expect(post).toMatchObject({
      slug: "hello-world",
      status: "published",
      publishedAt: "2021-03-04T09:30:00.000Z",
      authorId: author.id,
      newsletter: 0,
      // Published elsewhere before: never sent to Fediverse followers as news.
      federate: 0,
    });
    expect(translations.map((t) => [t.locale, t.title, t.summary])).toEqual([
      ["en", "Hello, world", "The first post of the old blog."],
      ["zh", "你好，世界", "旧博客的第一篇文章。"],
    ]);
    const [media] = await database.db.selectFrom("media").select("id").execute();
    expect(post.coverImageUrl).toMatch(new RegExp(`^/media/${media?.id}/`));
    const en = translations[0];
    expect(en?.bodyMarkdown).toContain(`](/media/${media?.id}/`);
    expect(en?.bodyMarkdown).toContain("](missing.png)");
    expect(en?.bodyHtml).toContain(`src="/media/${media?.id}/`);
    expect(en?.bodyHtml).toContain("https://images.example.com/remote.png");
    // The same picture in the Chinese version is the same stored image.
    expect(translations[1]?.bodyMarkdown).toContain(`](/media/${media?.id}/`);
    const category = await database.db
      .selectFrom("categories")
      .select("nameEn")
      .where("id", "=", post.categoryId ?? "")
      .executeTakeFirstOrThrow();
    expect(category.nameEn).toBe("Notes");
    const tags = await database.db
      .selectFrom("postTags as pt")
      .innerJoin("tags as t", "t.id", "pt.tagId")
      .select("t.nameEn")
      .where("pt.postId", "=", post.id)
      .orderBy("t.nameEn")
      .execute();
    // The second category becomes a tag.
    expect(tags.map((t) => t.nameEn).sort()).toEqual(["Intro", "Meta", "Travel", "介绍"].sort());
    const draft = await postOf("content/posts/draft");
    expect(draft.post.status).toBe("draft");
    const toml = await postOf("content/about-hugo");
    expect(toml.translations.map((t) => t.title)).toEqual(["About Hugo", "关于 Hugo"]);
    const hexo = await postOf("slug:source/_posts/intro");
    expect(hexo.translations.map((t) => t.locale)).toEqual(["en", "zh"]);
    const revisions = await database.db
      .selectFrom("postRevisions")
      .select("id")
      .where("postId", "=", post.id)
      .execute();
    expect(revisions).toHaveLength(1);
  });

  it("sanitizes imported content exactly like authored content", async () => {
    const { translations } = await postOf("hostile/xss");
    const html = translations[0]?.bodyHtml ?? "";
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/javascript:/i);
    expect(html).not.toMatch(/onerror/i);
    // The title is stored as the text it is; pages escape it.
    expect(translations[0]?.title).toBe("<script>alert('title')</script> Hostile");
  });

  it("redirects the old addresses with a 301 to the right post", async () => {
    const hello = await postOf("content/posts/hello");
    const hexo = await postOf("source/_posts/first-post");
    await withRedirectServer(database.db, async (base) => {
      const get = (p: string) => fetch(`${base}${p}`, { redirect: "manual" });
      for (const [from, to] of [
        ["/posts/hello-world/", `/posts/detail/${hello.post.id}`],
        ["/2021/03/04/hello-world/", `/posts/detail/${hello.post.id}`],
        ["/old/hello.html", `/posts/detail/${hello.post.id}`],
        ["/zh/posts/hello-world/", `/zh/posts/detail/${hello.post.id}`],
        ["/2019/05/06/first-post/", `/posts/detail/${hexo.post.id}`],
      ] as const) {
        const res = await get(from);
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(to);
      }
    });
    const sources = await database.db.selectFrom("redirects").select("source").distinct().execute();
    expect(sources.map((s) => s.source)).toEqual(["import:markdown"]);
  });

  it("a second run of the same folder adds nothing and skips every post as unchanged", async () => {
    const before = await Promise.all(
      (["posts", "postTranslations", "media", "redirects", "importSources", "tags", "categories"] as const).map(count),
    );
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({ imported: 0, updated: 0, skipped: 9, failed: 3 });
    const after = await Promise.all(
      (["posts", "postTranslations", "media", "redirects", "importSources", "tags", "categories"] as const).map(count),
    );
    expect(after).toEqual(before);
  });

  it("updates a post whose file changed, and leaves one edited on the site alone", async () => {
    const change = async (rel: string, from: string, to: string) => {
      const file = path.join(root, rel);
      await writeFile(file, (await readFile(file, "utf8")).replace(from, to));
    };
    await change("plain/json-post.md", "Body after", "New body after");
    // An admin saved this one in the editor since (its version moved on).
    const edited = await postOf("source/_posts/first-post");
    await database.db.updateTable("posts").set({ version: 5 }).where("id", "=", edited.post.id).execute();
    await change("source/_posts/first-post.md", "A Hexo post", "A changed Hexo post");
    const postsBefore = await count("posts");
    const id = await runImport();
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ imported: 0, updated: 1, skipped: 8 });
    expect(job?.report).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ item: "source/_posts/first-post.md", reason: "editedSinceImport" }),
      ]),
    );
    expect(await count("posts")).toBe(postsBefore);
    const json = await postOf("plain/json-post");
    expect(json.translations[0]?.bodyHtml).toContain("New body after");
    expect(json.post.version).toBe(2);
    const hexo = await postOf("source/_posts/first-post");
    expect(hexo.translations[0]?.bodyMarkdown).not.toContain("changed");
  });

  it("resumes an interrupted import from its cursor without writing anything twice", async () => {
    // Start from an empty blog (the mapping of images stays: their files are still stored).
    await database.db.deleteFrom("importSources").where("entity", "=", "post").execute();
    await database.db.deleteFrom("posts").execute();
    await database.db.deleteFrom("redirects").execute();
    const read = await readMarkdownFolder(root);
    const id = await queuePostImport(database.db, {
      kind: MARKDOWN_SOURCE,
      label: root,
      rootDir: root,
      actor: author,
      authorId: author.id,
      read,
    });
    // Two chunks commit, then the process "dies".
    await drain({ chunk: 2, maxChunks: 2 });
    const half = await getPostImport(database.db, id);
    expect(half).toMatchObject({ status: "running", processed: 4 });
    expect(await count("posts")).toBe(4);
    // The next run finds the unfinished import of this folder and carries on from its cursor.
    expect(await unfinishedImportOf(database.db, MARKDOWN_SOURCE, root)).toBe(id);
    await drain({ chunk: 3 });
    expect(await getPostImport(database.db, id)).toMatchObject({ status: "done", processed: 9, imported: 9 });
    expect(await count("posts")).toBe(9);
    // Images were found again by their content: still one stored.
    expect(await count("media")).toBe(1);
  });

  it("fails a body nested too deeply with a reason, in the dry run and the import, and imports the rest", async () => {
    const other = await mkdtemp(path.join(tmpdir(), "inkwell-md-deep-"));
    try {
      await writeFile(path.join(other, "deep.md"), `---\ntitle: Deep\n---\n${">".repeat(5000)} x\n`);
      await writeFile(path.join(other, "fine.md"), "---\ntitle: Fine\n---\nFine.\n");
      const read = await readMarkdownFolder(other);
      const plan = await planPostImport(database.db, {
        kind: MARKDOWN_SOURCE,
        read,
        images: localImageResolver(other, MAX_BYTES),
      });
      expect(plan.counts).toMatchObject({ imported: 1, failed: 1 });
      const id = await queuePostImport(database.db, {
        kind: MARKDOWN_SOURCE,
        label: other,
        rootDir: other,
        actor: author,
        authorId: author.id,
        read,
      });
      await drain();
      const job = await getPostImport(database.db, id);
      expect(job).toMatchObject({ status: "done", imported: 1, failed: 1 });
      expect(job?.report).toContainEqual({ item: "deep.md", outcome: "failed", reason: "bodyTooDeep" });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
