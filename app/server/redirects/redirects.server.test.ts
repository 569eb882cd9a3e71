import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { checkTarget, normalizeFrom } from "../../lib/redirects.ts";
import type { DB } from "../db/db.server.ts";
import { EXPORT_TABLES } from "../ops/export.server.ts";
import { LOGICAL_TABLES } from "../ops/tables.server.ts";
import { readRedirectCsv } from "./csv.server.ts";
import {
  deleteRedirect,
  getRedirect,
  importRedirects,
  listRedirectsForAdmin,
  type RedirectInput,
  redirectsForExport,
  saveRedirect,
  writeRedirectHits,
} from "./redirects.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});
beforeEach(async () => {
  await database.db.deleteFrom("redirects").execute();
});

/** A redirect input from what an admin would type. */
function input(from: string, to: string, extra: Partial<RedirectInput> = {}): RedirectInput {
  const f = normalizeFrom(from);
  const t = checkTarget(to, extra.external ?? false);
  if (!f.ok || !t.ok) throw new Error(`bad test input ${from} → ${to}`);
  return { fromPath: f.path, fromQuery: f.query, to: t.target, status: 301, external: false, ...extra };
}

const save = (db: DB, from: string, to: string, extra: Partial<RedirectInput> = {}, id?: string) =>
  db.transaction().execute((trx) => saveRedirect(trx, input(from, to, extra), id));

async function table(db: DB): Promise<Record<string, string>> {
  const rows = await redirectsForExport(db);
  return Object.fromEntries(rows.map((r) => [r.from, r.to]));
}

describe(`redirects (${testDialect()})`, () => {
  it("stores the normalised from-path with its query, and lists, searches and deletes", async () => {
    const { db } = database;
    const a = await save(db, "/2019/05/Hello-World/", "/posts/detail/p1", { note: "first post" });
    const b = await save(db, "/?p=123", "/posts/detail/p2", { status: 302, source: "import:wordpress" });
    expect(a?.ok && b?.ok).toBe(true);
    expect(await table(db)).toEqual({ "/2019/05/hello-world": "/posts/detail/p1", "/?p=123": "/posts/detail/p2" });
    const list = await listRedirectsForAdmin(db, { q: "FIRST", page: 1, pageSize: 10 });
    expect(list.items.map((r) => r.from)).toEqual(["/2019/05/hello-world"]);
    const p2 = (await listRedirectsForAdmin(db, { q: "?p=", page: 1, pageSize: 10 })).items[0];
    expect(p2).toMatchObject({ status: 302, source: "import:wordpress", hits: 0, lastHitAt: null, external: false });
    expect(await deleteRedirect(db, p2?.id ?? "")).toBe(true);
    expect((await listRedirectsForAdmin(db, { page: 1, pageSize: 10 })).total).toBe(1);
  });

  it("refuses a from-path another row has, a redirect to itself and loops, writing nothing", async () => {
    const { db } = database;
    expect(await save(db, "/a", "/b")).toMatchObject({ ok: true });
    expect(await save(db, "/A/", "/c")).toEqual({ ok: false, error: "fromTaken" });
    expect(await save(db, "/b", "/a")).toEqual({ ok: false, error: "loop" });
    expect(await save(db, "/b", "/a?utm=1")).toEqual({ ok: false, error: "loop" });
    expect(await save(db, "/c", "/C/")).toEqual({ ok: false, error: "self" });
    // A query-only row leading to its own path without that query is no loop.
    expect(await save(db, "/?p=1", "/")).toMatchObject({ ok: true });
    expect(await table(db)).toEqual({ "/a": "/b", "/?p=1": "/" });
  });

  it("flattens chains both ways: a new row's target is followed, and rows leading to it are re-pointed", async () => {
    const { db } = database;
    await save(db, "/b", "/c");
    // A → B with B → C stored is stored as A → C.
    expect(await save(db, "/a", "/b")).toMatchObject({ ok: true, to: "/c" });
    // C → D: A and B, which led to C, now lead to D; a longer loop back is refused.
    expect(await save(db, "/c", "/d")).toMatchObject({ ok: true, repointed: 2 });
    expect(await table(db)).toEqual({ "/a": "/d", "/b": "/d", "/c": "/d" });
    expect(await save(db, "/d", "/a")).toEqual({ ok: false, error: "loop" });
    // A re-pointed row keeps its own query on its target when the new hop has none.
    await save(db, "/x", "/e?keep=1");
    await save(db, "/e", "/f");
    expect((await table(db))["/x"]).toBe("/f?keep=1");
  });

  it("edits a row in place, and answers undefined for one that is gone", async () => {
    const { db } = database;
    const saved = await save(db, "/old", "/new");
    const id = saved?.ok ? saved.id : "";
    expect(await save(db, "/older", "/newer", { status: 302, note: "moved" }, id)).toMatchObject({ ok: true, id });
    expect(await getRedirect(db, id)).toMatchObject({ from: "/older", to: "/newer", status: 302, note: "moved" });
    // Editing a row may keep its own from-path (no clash with itself).
    expect(await save(db, "/older", "/newest", {}, id)).toMatchObject({ ok: true });
    expect(await save(db, "/x", "/y", {}, "missing")).toBeUndefined();
  });

  it("stores an external https target only for a row that allows it", async () => {
    const { db } = database;
    await save(db, "/gone", "https://elsewhere.example/new", { external: true });
    expect(await getRedirect(db, (await redirectsForExport(db))[0]?.id ?? "")).toMatchObject({ external: true });
    // A row leading to the external one is flattened to it and marked external too.
    await save(db, "/older-gone", "/gone");
    const rows = await redirectsForExport(db);
    expect(rows.find((r) => r.from === "/older-gone")).toMatchObject({
      to: "https://elsewhere.example/new",
      external: true,
    });
  });

  it("adds hits and the last hit time without touching updatedAt", async () => {
    const { db } = database;
    await save(db, "/counted", "/target");
    const [row] = await redirectsForExport(db);
    const id = row?.id ?? "";
    await writeRedirectHits(db, new Map([[id, 3]]), new Date("2026-11-26T10:00:00.000Z"));
    await writeRedirectHits(db, new Map([[id, 2]]), new Date("2026-11-26T11:00:00.000Z"));
    expect(await getRedirect(db, id)).toMatchObject({
      hits: 5,
      lastHitAt: "2026-11-26T11:00:00.000Z",
      updatedAt: row?.updatedAt,
    });
  });

  it("is in the backup and export table lists", () => {
    expect(LOGICAL_TABLES.map((t) => t.name)).toContain("redirects");
    expect(EXPORT_TABLES.map((t) => t.name)).toContain("redirects");
  });
});

describe(`redirect CSV import (${testDialect()})`, () => {
  const csv = (text: string) => new TextEncoder().encode(text);

  it("reports rows added, updated, unchanged and skipped with reasons, in one pass", async () => {
    const { db } = database;
    await save(db, "/kept", "/same");
    await save(db, "/changed", "/before");
    await save(db, "/loop-target", "/loop-start");
    const file = readRedirectCsv(
      csv(
        [
          "from,to,status,note",
          "/kept,/same,301,",
          "/changed,/after,302,",
          "/new-one/,/posts/detail/n1,,from csv",
          "https://old.example/?p=7,/posts/detail/n7,301,",
          "/admin,/x,301,",
          "/evil,//evil.example,301,",
          "/ext,https://elsewhere.example/,301,",
          "/bad-status,/x,307,",
          "/NEW-ONE,/other,301,",
          "/loop-start,/loop-target,301,",
          ",,,",
        ].join("\r\n"),
      ),
    );
    if (!file.ok) throw new Error("file refused");
    // Whether the site answers a path is the writer's check (below), not the reader's.
    expect(file.problems.map((p) => [p.line, p.reason])).toEqual([
      [7, "toExternal"],
      [8, "toExternal"],
      [9, "status"],
      [10, "duplicate"],
    ]);
    const outcome = await db.transaction().execute((trx) => importRedirects(trx, file.candidates, "import:csv"));
    expect(outcome).toEqual({
      added: 2,
      updated: 1,
      unchanged: 1,
      refused: [
        { line: 6, reason: "fromReserved", from: "/admin" },
        { line: 11, reason: "loop", from: "/loop-start" },
      ],
    });
    expect(await table(db)).toEqual({
      "/kept": "/same",
      "/changed": "/after",
      "/new-one": "/posts/detail/n1",
      "/?p=7": "/posts/detail/n7",
      "/loop-target": "/loop-start",
    });
    const added = (await redirectsForExport(db)).find((r) => r.from === "/new-one");
    expect(added).toMatchObject({ source: "import:csv", note: "from csv", status: 301 });
    // A second run of the same file changes nothing.
    const again = await db.transaction().execute((trx) => importRedirects(trx, file.candidates, "import:csv"));
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 4 });
  });

  it("flattens chains inside one file, and counts them unchanged when the file comes again", async () => {
    const { db } = database;
    const file = readRedirectCsv(csv("from,to\n/c1,/c2\n/c2,/c3\n/c3,/c4\n"));
    if (!file.ok) throw new Error("file refused");
    const first = await db.transaction().execute((trx) => importRedirects(trx, file.candidates, "import:csv"));
    expect(first).toEqual({ added: 3, updated: 0, unchanged: 0, refused: [] });
    expect(await table(db)).toEqual({ "/c1": "/c4", "/c2": "/c4", "/c3": "/c4" });
    const again = await db.transaction().execute((trx) => importRedirects(trx, file.candidates, "import:csv"));
    expect(again).toEqual({ added: 0, updated: 0, unchanged: 3, refused: [] });
    expect(await table(db)).toEqual({ "/c1": "/c4", "/c2": "/c4", "/c3": "/c4" });
  });

  it("reads an external row that allows it, and refuses files that are no redirect CSV", () => {
    const ok = readRedirectCsv(csv("From,To,External\n/ext,https://elsewhere.example/,yes\n"));
    expect(ok.ok && ok.candidates[0]).toMatchObject({ fromPath: "/ext", external: true });
    expect(readRedirectCsv(csv("email\nx@example.com\n"))).toEqual({ ok: false, error: { code: "noColumns" } });
    expect(readRedirectCsv(csv(""))).toEqual({ ok: false, error: { code: "empty" } });
    expect(readRedirectCsv(new Uint8Array([0xff, 0xfe, 0x00]))).toEqual({ ok: false, error: { code: "notText" } });
    expect(readRedirectCsv(csv('from,to\n"/a,/b\n'))).toEqual({
      ok: false,
      error: { code: "unterminatedQuote", line: 2 },
    });
  });
});
