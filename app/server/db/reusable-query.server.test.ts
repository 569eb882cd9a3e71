import { type KyselyPlugin, type PluginTransformQueryArgs, type RootOperationNode, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { POST_PAGE_QUERIES } from "../repos/post-detail.server.ts";
import { nowIso } from "./db.server.ts";
import { reusableQuery, reusesQueries } from "./reusable-query.server.ts";
import { NUL_TEXT_MESSAGE } from "./text-guard.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db
    .insertInto("siteSettings")
    .values(
      [
        ["reuse.a", "one"],
        ["reuse.b", "two"],
        ["reuse.c", "three"],
      ].map(([key, value]) => ({ key, value, createdAt: nowIso(), updatedAt: nowIso() })),
    )
    .execute();
});
afterAll(async () => {
  await database.cleanup();
});

/** Settings by key prefix, longest value first: a value in a join-free query, a constant and a limit. */
const settingsLike = reusableQuery(["from", "to", "limit"], (db, v: { from: string; to: string; limit: number }) =>
  db
    .selectFrom("siteSettings")
    .select(["key", "value"])
    .where("key", ">=", v.from)
    .where("key", "<", v.to)
    .where("value", "!=", "never")
    .orderBy("key", "desc")
    .limit(v.limit),
);

class Counting implements KyselyPlugin {
  seen = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.seen += 1;
    return args.node;
  }
  async transformResult<T>(args: { result: T }): Promise<T> {
    return args.result;
  }
}

describe("reusable queries", () => {
  it("run on the database openDatabase made, with each call's own values", async () => {
    const { db } = database;
    expect(reusesQueries(db)).toBe(true);
    expect(await settingsLike.execute(db, { from: "reuse.", to: "reuse/", limit: 10 })).toEqual([
      { key: "reuse.c", value: "three" },
      { key: "reuse.b", value: "two" },
      { key: "reuse.a", value: "one" },
    ]);
    // Different values, different rows: nothing of the first call's values is kept.
    expect(await settingsLike.execute(db, { from: "reuse.a", to: "reuse.c", limit: 1 })).toEqual([
      { key: "reuse.b", value: "two" },
    ]);
    expect(await settingsLike.takeFirst(db, { from: "reuse.c", to: "reuse/", limit: 5 })).toEqual({
      key: "reuse.c",
      value: "three",
    });
    expect(await settingsLike.takeFirst(db, { from: "zzz", to: "zzzz", limit: 5 })).toBeUndefined();
  });

  it("compile to what Kysely builds afresh, for any values", () => {
    const { db } = database;
    for (const values of [
      { from: "a", to: "b", limit: 1 },
      { from: "reuse.", to: "reuse/", limit: 30 },
    ]) {
      const reused = settingsLike.compile(db, values);
      const fresh = settingsLike.build(db, values).compile();
      expect([reused.sql, reused.parameters]).toEqual([fresh.sql, fresh.parameters]);
      expect(reused.parameters).toContain(values.from);
      expect(reused.parameters).toContain("never");
    }
  });

  it("refuse a NUL character in a value, as every other query does", async () => {
    await expect(settingsLike.execute(database.db, { from: "a\u0000", to: "b", limit: 1 })).rejects.toSatisfy(
      (e: unknown) => e instanceof Response && e.status === 400,
    );
    const refused = await settingsLike.execute(database.db, { from: "a", to: "b\u0000", limit: 1 }).catch((e) => e);
    expect(await (refused as Response).text()).toBe(NUL_TEXT_MESSAGE);
  });

  it("build every time on a database with other plugins (a recording test) or in a transaction", async () => {
    const counting = new Counting();
    const recorded = database.db.withPlugin(counting);
    expect(reusesQueries(recorded)).toBe(false);
    await settingsLike.execute(recorded, { from: "reuse.", to: "reuse/", limit: 10 });
    await settingsLike.execute(recorded, { from: "reuse.", to: "reuse/", limit: 10 });
    expect(counting.seen).toBe(2);
    const rows = await database.db
      .transaction()
      .execute((trx) => settingsLike.execute(trx, { from: "reuse.a", to: "reuse.b", limit: 10 }));
    expect(rows).toEqual([{ key: "reuse.a", value: "one" }]);
  });

  it("refuse a builder that changes a value or writes it into the SQL", () => {
    const changes = reusableQuery(["q"], (db, v: { q: string }) =>
      db.selectFrom("siteSettings").select("key").where("key", "like", `%${v.q}%`),
    );
    expect(() => changes.compile(database.db, { q: "x" })).toThrow(/changed its value/);
    const inlines = reusableQuery(["q"], (db, v: { q: string }) =>
      db.selectFrom("siteSettings").select("key").where("key", "=", sql.lit(v.q)),
    );
    expect(() => inlines.compile(database.db, { q: "x" })).toThrow(/into its SQL/);
  });

  it("the post page's queries compile as a fresh build does, for both languages", () => {
    const { db } = database;
    const { postDetailRow, postTagRows, previousPost, nextPost, relatedPostRows } = POST_PAGE_QUERIES;
    for (const [locale, other] of [
      ["en", "zh"],
      ["zh", "en"],
    ] as const) {
      const checks = [
        [postDetailRow, { id: `post-${locale}`, locale, other }],
        [postTagRows, { id: `post-${locale}` }],
        [previousPost, { id: "p1", publishedAt: "2026-01-01T00:00:00.000Z", locale, other }],
        [nextPost, { id: "p2", publishedAt: "2026-02-01T00:00:00.000Z", locale, other }],
        [relatedPostRows, { postId: "p3", locale, other, limit: 3, candidates: 30 }],
      ] as const;
      for (const [query, values] of checks) {
        // Each query's own values type; the pairs above match them.
        const q = query as unknown as typeof postTagRows;
        const v = values as unknown as { id: string };
        const reused = q.compile(db, v);
        const fresh = q.build(db, v).compile();
        expect([reused.sql, reused.parameters]).toEqual([fresh.sql, fresh.parameters]);
        for (const value of Object.values(values)) expect(reused.parameters).toContain(value);
      }
    }
  });
});
