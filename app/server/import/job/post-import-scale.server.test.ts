import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../../../../tests/setup/fixtures-db.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../../tests/setup/test-db.ts";
import { saveRedirect } from "../../redirects/redirects.server.ts";
import { createLocalStorage } from "../../storage/local.server.ts";
import type { ImportedPost } from "../core.server.ts";
import { type ImportRenderer, inProcessImportRenderer } from "../render-pool.server.ts";
import { loadWxr } from "../wordpress/wxr.server.ts";
import { readWxr, streamWxr } from "../wordpress.server.ts";
import {
  appendPostImportItems,
  beginPostImport,
  dropReadingImports,
  finishPostImportRead,
  unfinishedImportOf,
} from "./queue.server.ts";
import { getPostImport } from "./report.server.ts";
import { importNextPostChunk } from "./runner.server.ts";
import { importDeps } from "./worker.server.ts";

// Imports at scale (decision 020, "At scale"): items appended in batches while a source is read,
// a killed read left behind and dropped, the redirects kept between chunks only while nobody else
// changes the table, and the WordPress export streamed in two passes.

const EXPORT = path.resolve(import.meta.dirname, "../../../../tests/fixtures/wordpress/export.xml");
const KIND = "scale-test";
let database: TestDatabase;
let root: string;
let author: { id: string; email: string };

const post = (n: number): ImportedPost => ({
  sourceId: `p${n}`,
  label: `Post ${n}`,
  translations: [{ locale: "en", title: `Post ${n}`, summary: "", bodyMarkdown: `Body ${n}.`, origin: `p${n}` }],
  slug: `post-${n}`,
  publishedAt: "2020-01-02T00:00:00.000Z",
  status: "published",
  tags: [],
  categories: [],
  cover: null,
  coverAlt: "",
  oldUrls: [`/old/post-${n}/`],
  assetDirs: [""],
  notes: [],
});

const deps = () => importDeps(database.db, createLocalStorage(path.join(root, "store")), 1024 * 1024);
const source = () => ({ kind: KIND, label: "scale", rootDir: root, actor: author, authorId: author.id });

async function redirectTo(from: string): Promise<string | undefined> {
  const row = await database.db
    .selectFrom("redirects")
    .select("toPath")
    .where("fromPath", "=", from)
    .executeTakeFirst();
  return row?.toPath;
}

beforeAll(async () => {
  database = await createTestDatabase();
  root = await mkdtemp(path.join(tmpdir(), "inkwell-scale-"));
  author = { id: await insertUser(database.db, { email: "scale@example.test" }), email: "scale@example.test" };
});

beforeEach(async () => {
  await database.db.deleteFrom("postImportItems").execute();
  await database.db.deleteFrom("postImports").execute();
});

afterAll(async () => {
  await database.cleanup();
  await rm(root, { recursive: true, force: true });
});

describe(`imports at scale (${testDialect()})`, () => {
  it("appends items in batches while reading; nothing runs a reading import, and a killed read is dropped", async () => {
    const id = await beginPostImport(database.db, source());
    expect(await appendPostImportItems(database.db, id, [post(1), post(2)])).toBe(true);
    expect(
      await appendPostImportItems(database.db, id, [post(3)], [{ item: "x", outcome: "failed", reason: "r" }]),
    ).toBe(true);
    expect(await getPostImport(database.db, id)).toMatchObject({ status: "reading", total: 3, failed: 1 });
    const seqs = await database.db
      .selectFrom("postImportItems")
      .select("seq")
      .where("importId", "=", id)
      .orderBy("seq")
      .execute();
    expect(seqs.map((r) => Number(r.seq))).toEqual([0, 1, 2]);
    // The process "dies" here: no worker takes the import and no run resumes it.
    expect(await importNextPostChunk(deps())).toBe("idle");
    expect(await unfinishedImportOf(database.db, KIND, root)).toBeNull();
    // The next run of the same source drops it with its items, and reads again.
    expect(await dropReadingImports(database.db, KIND, root)).toBe(1);
    expect(await getPostImport(database.db, id)).toBeNull();
    const { n } = await database.db
      .selectFrom("postImportItems")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(0);
    // Once finished it is queued, can no longer be appended to, and is worked through.
    const again = await beginPostImport(database.db, source());
    await appendPostImportItems(database.db, again, [post(1), post(2), post(3)]);
    expect(await finishPostImportRead(database.db, again)).toBe(true);
    expect(await appendPostImportItems(database.db, again, [post(4)])).toBe(false);
    expect(await unfinishedImportOf(database.db, KIND, root)).toBe(again);
    for (let i = 0; i < 10; i++) if ((await importNextPostChunk(deps(), { chunk: 2 })) === "idle") break;
    expect(await getPostImport(database.db, again)).toMatchObject({ status: "done", total: 3, imported: 3 });
  });

  it("drops only the reading import of the same export when a label is given (exports may share a folder)", async () => {
    const a = await beginPostImport(database.db, { ...source(), label: "a.xml" });
    const b = await beginPostImport(database.db, { ...source(), label: "b.xml" });
    expect(await dropReadingImports(database.db, KIND, root, "a.xml")).toBe(1);
    expect(await getPostImport(database.db, a)).toBeNull();
    expect(await getPostImport(database.db, b)).toMatchObject({ status: "reading" });
  });

  it("sees a redirect written by someone else between two chunks of the same import", async () => {
    const id = await beginPostImport(database.db, source());
    await appendPostImportItems(database.db, id, [post(10), post(11)]);
    await finishPostImportRead(database.db, id);
    expect(await importNextPostChunk(deps(), { chunk: 1 })).toBe("progress");
    expect(await redirectTo("/old/post-10")).toMatch(/^\/posts\/detail\//);
    // An admin redirects the second post's old address elsewhere while the import runs.
    const saved = await database.db.transaction().execute((trx) =>
      saveRedirect(trx, {
        fromPath: "/old/post-11",
        fromQuery: "",
        to: "/about",
        status: 301,
        external: false,
        source: "manual",
      }),
    );
    expect(saved?.ok).toBe(true);
    // The next chunk plans against the table as it is now: the admin's row is kept and noted,
    // not inserted twice (which the unique from-path would refuse, failing the chunk).
    expect(await importNextPostChunk(deps(), { chunk: 1 })).toBe("progress");
    expect(await importNextPostChunk(deps(), { chunk: 1 })).toBe("done");
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", imported: 2 });
    expect(job?.report).toContainEqual(expect.objectContaining({ reason: "redirectExists", detail: "/old/post-11" }));
    expect(await redirectTo("/old/post-11")).toBe("/about");
  });

  it("renders the next chunk while it writes one, each post once, and drops a look-ahead it cannot use", async () => {
    const asked: string[] = [];
    let failOn: string | null = null;
    const renderer: ImportRenderer = {
      async render(request) {
        // Each post's body is "Body N.": named back to its title.
        const title = (request.bodies[0]?.markdown ?? "").replace(/^Body (\d+)\.$/, "Post $1");
        asked.push(title);
        if (title === failOn) throw new Error(`render of ${title} failed`);
        return inProcessImportRenderer.render(request);
      },
      close: async () => {},
    };
    const withRenderer = { ...deps(), renderer };
    const id = await beginPostImport(database.db, source());
    await appendPostImportItems(
      database.db,
      id,
      [20, 21, 22, 23, 24, 25, 26].map((n) => post(n)),
    );
    await finishPostImportRead(database.db, id);
    failOn = "Post 23";
    // The first chunk is written; the second was already handed to the renderer before that.
    expect(await importNextPostChunk(withRenderer, { chunk: 2 })).toBe("progress");
    expect(asked).toEqual(["Post 20", "Post 21", "Post 22", "Post 23"]);
    expect((await getPostImport(database.db, id))?.processed).toBe(2);
    // The look-ahead failed: its failure surfaces in its own chunk (retried as any error) and
    // nowhere else (an unhandled rejection would fail this test).
    await expect(importNextPostChunk(withRenderer, { chunk: 2 })).rejects.toThrow(/render of Post 23 failed/);
    failOn = null;
    asked.length = 0;
    expect(await importNextPostChunk(withRenderer, { chunk: 2 })).toBe("progress");
    expect(asked).toEqual(["Post 22", "Post 23", "Post 24", "Post 25"]);
    // Another chunk size than the look-ahead's: it is dropped and the chunk prepared afresh.
    asked.length = 0;
    expect(await importNextPostChunk(withRenderer, { chunk: 3 })).toBe("progress");
    expect(asked).toEqual(["Post 24", "Post 25", "Post 26"]);
    expect(await importNextPostChunk(withRenderer, { chunk: 3 })).toBe("done");
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", imported: 7, skipped: 0, failed: 0 });
    const titles = await database.db
      .selectFrom("postTranslations")
      .select("title")
      .where("title", "in", ["Post 20", "Post 21", "Post 22", "Post 23", "Post 24", "Post 25", "Post 26"])
      .execute();
    expect(titles).toHaveLength(7);
  });

  it("streams a WordPress export into the same posts as reading it whole, in batches", async () => {
    const whole = readWxr(await loadWxr(EXPORT));
    const batches: ImportedPost[][] = [];
    const streamed = await streamWxr(
      EXPORT,
      {},
      async (posts) => {
        batches.push(posts);
      },
      2,
    );
    const posts = batches.flat();
    const byId = (list: ImportedPost[]) => [...list].sort((a, b) => a.sourceId.localeCompare(b.sourceId));
    expect(byId(posts)).toEqual(byId(whole.posts));
    expect(posts.some((p) => p.translations.length === 2)).toBe(true);
    expect(streamed.problems).toEqual(whole.problems);
    expect(streamed.attachments).toBe(2);

    // An export larger than one piece read (64 KiB) is handed on in several batches as it is read.
    const items = Array.from(
      { length: 300 },
      (_, n) =>
        `<item><title>Post ${n}</title><wp:post_id>${n + 1}</wp:post_id><wp:status>publish</wp:status>` +
        `<wp:post_type>post</wp:post_type><content:encoded><![CDATA[<p>${"Tea. ".repeat(80)}</p>]]></content:encoded></item>`,
    );
    const big = path.join(root, "big.xml");
    await writeFile(
      big,
      `<?xml version="1.0"?><rss xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><wp:wxr_version>1.2</wp:wxr_version>${items.join("")}</channel></rss>`,
    );
    const sizes: number[] = [];
    await streamWxr(
      big,
      {},
      async (list) => {
        sizes.push(list.length);
      },
      20,
    );
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(300);
    expect(sizes.length).toBeGreaterThan(2);
    expect(Math.max(...sizes)).toBeLessThan(300);
  });
});
