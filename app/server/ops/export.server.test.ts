import * as fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fillSite } from "../../../tests/setup/site-fixture.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { type OpenDatabase, openDatabase } from "../db/db.server.ts";
import { migrateToLatest } from "../db/migrate.server.ts";
import { staleTables } from "../db/statistics.server.ts";
import { EXPORT_TABLES, exportContent, ImportRefused, importContent, parseExport } from "./export.server.ts";
import { canonicalRow, countRows, readAllRows, tableDigests } from "./tables.server.ts";

let root: string;
let source: OpenDatabase;

const WITHOUT_ACCOUNTS = EXPORT_TABLES.filter((t) => t.name !== "accounts");

async function exportTo(name: string, opts: { withPasswords?: boolean } = {}) {
  const file = path.join(root, name);
  await exportContent(source, file, opts);
  return parseExport(await fsp.readFile(file, "utf8"));
}

beforeAll(async () => {
  root = await fsp.mkdtemp(path.join(os.tmpdir(), "inkwell-export-test-"));
  source = openDatabase({ dialect: "sqlite", file: ":memory:" });
  await migrateToLatest(source.db);
  await fillSite(source.db);
});

afterAll(async () => {
  await source.close();
  await fsp.rm(root, { recursive: true, force: true });
});

describe(`export from SQLite, import into ${testDialect()}`, () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await createTestDatabase();
  });
  afterAll(async () => {
    await target.cleanup();
  });

  it("moves every piece of content; credentials stay behind unless asked for", async () => {
    const doc = await exportTo("site.json");
    expect(doc.sourceDialect).toBe("sqlite");
    expect(doc.tables.sessions).toBeUndefined();
    await importContent(target, doc);
    expect(await tableDigests(target.db, WITHOUT_ACCOUNTS)).toEqual(await tableDigests(source.db, WITHOUT_ACCOUNTS));
    // Password sign-in rows are left out; the OAuth link stays, without its tokens.
    const accounts = await readAllRows(target.db, { name: "accounts", key: ["id"] });
    expect(accounts.map((a) => [a.providerId, a.accountId, a.accessToken, a.password])).toEqual([
      ["github", "gh-42", null, null],
    ]);
    // The search index is rebuilt for both languages.
    expect(await countRows(target.db, "postSearch")).toBe(2);
    // PostgreSQL's planner gets statistics for the loaded tables (none before: never analysed).
    expect(await staleTables(target)).toEqual([]);
  });

  it("refuses a database that holds content, and --force replaces it (with passwords this time)", async () => {
    const doc = await exportTo("site-with-passwords.json", { withPasswords: true });
    await expect(importContent(target, doc)).rejects.toThrow(ImportRefused);
    await importContent(target, doc, { force: true });
    expect(await tableDigests(target.db, EXPORT_TABLES)).toEqual(await tableDigests(source.db, EXPORT_TABLES));
  });

  it("refuses a post without any translation, writing nothing", async () => {
    const before = await tableDigests(target.db, EXPORT_TABLES);
    const doc = await exportTo("bare.json");
    const [first] = doc.tables.posts ?? [];
    doc.tables.postTranslations = (doc.tables.postTranslations ?? []).filter((t) => t.postId !== first?.id);
    await expect(importContent(target, doc, { force: true })).rejects.toThrow(/no translation/);
    expect(await tableDigests(target.db, EXPORT_TABLES)).toEqual(before);
  });

  it("imports in one transaction: a bad row leaves the database as it was", async () => {
    const before = await tableDigests(target.db, EXPORT_TABLES);
    const doc = await exportTo("broken.json");
    // A tag for a post that does not exist breaks a foreign key near the end of the load.
    doc.tables.postTags = [...(doc.tables.postTags ?? []), { postId: "missing", tagId: "t1" }];
    await expect(importContent(target, doc, { force: true })).rejects.toThrow();
    expect(await tableDigests(target.db, EXPORT_TABLES)).toEqual(before);
  });

  it("round-trips: exporting the imported site gives the same document", async () => {
    const again = path.join(root, "again.json");
    await exportContent(target, again, { withPasswords: true });
    const first = await exportTo("first.json", { withPasswords: true });
    const second = parseExport(await fsp.readFile(again, "utf8"));
    // Row order may differ between dialects (collations); the rows may not.
    const rows = (tables: typeof first.tables) =>
      Object.fromEntries(Object.entries(tables).map(([name, list]) => [name, list.map(canonicalRow).sort()]));
    expect(rows(second.tables)).toEqual(rows(first.tables));
    expect(Object.keys(second.tables)).toEqual(EXPORT_TABLES.map((t) => t.name));
  });

  it("rejects documents that are not exports", () => {
    expect(() => parseExport("{")).toThrow(/not a JSON document/);
    expect(() => parseExport('{"format":"other"}')).toThrow(/not an Inkwell export/);
    expect(() =>
      parseExport('{"format":"inkwell-export","formatVersion":1,"schemaVersion":"29990101T000000_future","tables":{}}'),
    ).toThrow(/upgrade Inkwell first/);
    expect(() => parseExport('{"format":"inkwell-export","formatVersion":1,"tables":{"sessions":[]}}')).toThrow(
      /unexpected table/,
    );
  });
});
