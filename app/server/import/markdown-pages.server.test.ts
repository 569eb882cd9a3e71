import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../tests/setup/import-bed.ts";
import { importedPage } from "../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { localImageResolver } from "./images.server.ts";
import { planPostImport } from "./job/dry-run.server.ts";
import { getPostImport } from "./job/report.server.ts";
import { MARKDOWN_SOURCE, readMarkdownFolder } from "./markdown-folder.server.ts";

// A Markdown folder's pages imported as pages (issue 48, decision 035 "Importing pages"), both
// dialects: a folder the owner names (both languages) and a file marked `type: page`.

let bed: ImportBed;
let database: TestDatabase;
const OPTS = { pagesFolder: "pages" };
const read = () => readMarkdownFolder(bed.root, OPTS);
const runImport = async () =>
  bed.runImport({ kind: MARKDOWN_SOURCE, label: bed.root, read: await read() }, { chunk: 2 });

beforeAll(async () => {
  bed = await createImportBed("md-pages", { email: "md-pages@example.test" });
  database = bed.database;
  const put = async (rel: string, text: string) => {
    await mkdir(path.dirname(path.join(bed.root, rel)), { recursive: true });
    await writeFile(path.join(bed.root, rel), text);
  };
  await put(
    "content/en/pages/contact-us.md",
    "---\ntitle: Contact us\naliases: [/old-contact/]\n---\n\nWrite to us.\n",
  );
  await put("content/zh/pages/contact-us.md", "---\ntitle: 联系我们\ndescription: 来信地址\n---\n\n给我们写信。\n");
  await put("content/posts/colophon.md", "---\ntitle: Colophon\ntype: page\ndraft: true\n---\n\nMade by hand.\n");
  await put("content/posts/first.md", "---\ntitle: First post\ndate: 2020-01-02\n---\n\nHello.\n");
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`importing a Markdown folder's pages (${testDialect()})`, () => {
  it("the dry run counts pages apart from posts and writes nothing", async () => {
    const plan = await planPostImport(database.db, {
      kind: MARKDOWN_SOURCE,
      read: await read(),
      images: localImageResolver(bed.root, 1024 * 1024),
    });
    expect(plan.counts).toMatchObject({ total: 3, imported: 1, pages: 2, failed: 0 });
    expect(await bed.count("importSources")).toBe(0);
  });

  it("writes the folder's pair as one page in both languages and a marked file as a draft page", async () => {
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({ status: "done", imported: 1, pages: 2, failed: 0 });
    expect(await bed.count("posts")).toBe(1);
    expect(await importedPage(database.db, MARKDOWN_SOURCE, "content/pages/contact-us")).toMatchObject({
      slug: "contact-us",
      status: "published",
      titleEn: "Contact us",
      titleZh: "联系我们",
      descriptionZh: "来信地址",
      bodyEn: expect.stringContaining("Write to us."),
      bodyZh: expect.stringContaining("给我们写信。"),
    });
    expect(await importedPage(database.db, MARKDOWN_SOURCE, "content/posts/colophon")).toMatchObject({
      slug: "colophon",
      status: "draft",
    });
    await withRedirectServer(database.db, async (base) => {
      const res = await fetch(`${base}/old-contact/`, { redirect: "manual" });
      expect(res.status).toBe(301);
      expect(res.headers.get("location")).toBe("/contact-us");
    });
  });

  it("a second run adds nothing", async () => {
    const tables = ["pages", "pageRevisions", "posts", "redirects"] as const;
    const before = await Promise.all(tables.map((t) => bed.count(t)));
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({ imported: 0, updated: 0, pages: 0, skipped: 3 });
    expect(await Promise.all(tables.map((t) => bed.count(t)))).toEqual(before);
  });
});
