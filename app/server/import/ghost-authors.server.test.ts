import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../tests/fixtures/images.ts";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { createImportBed, type ImportBed, withRedirectServer } from "../../../tests/setup/import-bed.ts";
import { importedPost } from "../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { GHOST_SOURCE, loadGhostExport, readGhostExport } from "./ghost.server.ts";
import { getPostImport } from "./job/report.server.ts";

// Ghost's authors and Lexical bodies (tests/fixtures/ghost/authors-lexical.json), both dialects:
// authors matched by verified e-mail or made as accounts without login, their old pages
// redirected to the author pages, Lexical converted and rendered safely.

const EXPORT = path.resolve(import.meta.dirname, "../../../tests/fixtures/ghost/authors-lexical.json");
let bed: ImportBed;
let database: TestDatabase;
let owner: string;
let unverified: string;

const runImport = async () =>
  bed.runImport(
    { kind: GHOST_SOURCE, label: EXPORT, read: readGhostExport(await loadGhostExport(EXPORT)) },
    { chunk: 3 },
  );
const postOf = (sourceId: string) => importedPost(database.db, GHOST_SOURCE, sourceId);
const users = () => database.db.selectFrom("users").selectAll().orderBy("createdAt").orderBy("id").execute();

beforeAll(async () => {
  bed = await createImportBed("ghost-authors", { email: "importer@example.test", name: "Importer" });
  database = bed.database;
  await mkdir(path.join(bed.root, "content/images/2024/03"), { recursive: true });
  await writeFile(path.join(bed.root, "content/images/2024/03/pic.png"), await png(64, 48));
  // Ada's address, verified: her posts are hers.
  owner = await insertUser(database.db, { email: "owner@example.test", name: "Ada Here" });
  // Someone who signed up with Wang's address without confirming it gets nothing.
  unverified = await insertUser(database.db, { email: "wang@example.com", name: "Not Wang", emailVerified: false });
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`Ghost authors and Lexical bodies (${testDialect()})`, () => {
  it("maps authors by verified e-mail, else makes author accounts without login", async () => {
    const id = await runImport();
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", total: 4, imported: 4, failed: 1, imagesStored: 1 });
    expect(job?.report).toContainEqual(expect.objectContaining({ outcome: "failed", reason: "ghostLexicalInvalid" }));
    // No report line carries an address.
    expect(JSON.stringify(job?.report)).not.toMatch(/@example|wang@|eve@/);

    expect((await postOf("77b001")).post.authorId).toBe(owner);
    const wangPost = (await postOf("77b003")).post;
    const together = (await postOf("77b004")).post;
    expect(wangPost.authorId).not.toBe(unverified);
    expect(together.authorId).toBe(wangPost.authorId);
    expect(job?.report).toContainEqual(
      expect.objectContaining({ item: expect.stringContaining("Written together"), reason: "ghostCoAuthors" }),
    );

    const made = (await users()).filter((u) => u.email.endsWith("@authors.invalid"));
    expect(made.map((u) => u.name).sort()).toEqual(["Evegnp.exe Writer", "王小明"].sort());
    for (const u of made) {
      expect(u.emailVerified).toBe(0);
      expect(u.handle).toMatch(/^[a-z0-9-]+$/);
      expect(u.email).not.toMatch(/wang|eve/);
    }
    // No credential or any other sign-in for them.
    const accounts = await database.db
      .selectFrom("accounts")
      .select("id")
      .where(
        "userId",
        "in",
        made.map((u) => u.id),
      )
      .execute();
    expect(accounts).toEqual([]);
    expect(made.find((u) => u.name === "王小明")?.id).toBe(wangPost.authorId);
  });

  it("converts the Lexical bodies and renders them safely", async () => {
    const [media] = await database.db.selectFrom("media").select("id").execute();
    const rich = (await postOf("77b001")).translations[0];
    expect(rich?.bodyMarkdown).toContain(`![A picture](/media/${media?.id}/`);
    expect(rich?.bodyHtml).toContain("<h2");
    expect(rich?.bodyHtml).toContain("<strong>bold</strong>");
    expect(rich?.bodyHtml).toContain('<a href="https://example.net/article"');
    const hostile = (await postOf("77b002")).translations[0]?.bodyHtml ?? "";
    expect(hostile).not.toMatch(/<script|javascript:|onerror|<iframe/i);
    expect(hostile).toContain("click me");
    expect((await postOf("77b003")).translations.map((t) => [t.locale, t.title])).toEqual([["zh", "写在春天"]]);
  });

  it("redirects /author/{slug}/ to the author page with a 301", async () => {
    const handleOf = async (userId: string) =>
      (await database.db.selectFrom("users").select("handle").where("id", "=", userId).executeTakeFirstOrThrow())
        .handle;
    await withRedirectServer(database.db, async (base) => {
      const wang = (await postOf("77b003")).post.authorId ?? "";
      const eve = (await postOf("77b002")).post.authorId ?? "";
      for (const [from, userId] of [
        ["/author/ada/", owner],
        ["/author/xiaoming/", wang],
        ["/author/eve/", eve],
      ] as const) {
        const res = await fetch(`${base}${from}`, { redirect: "manual" });
        expect(res.status, from).toBe(301);
        expect(res.headers.get("location"), from).toBe(`/authors/${await handleOf(userId)}`);
      }
    });
  });

  it("a second run adds no post, account or redirect", async () => {
    const before = [(await users()).length, await database.db.selectFrom("redirects").select("id").execute()];
    const id = await runImport();
    expect(await getPostImport(database.db, id)).toMatchObject({ imported: 0, updated: 0, skipped: 4 });
    expect([(await users()).length, await database.db.selectFrom("redirects").select("id").execute()]).toEqual(before);
  });
});
