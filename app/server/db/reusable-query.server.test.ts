import { type KyselyPlugin, type PluginTransformQueryArgs, type RootOperationNode, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { COMMENT_QUERIES } from "../comments/comments.server.ts";
import { reactionRows } from "../federation/inbound-store.server.ts";
import { POST_PAGE_QUERIES } from "../posts/post-detail.server.ts";
import { listPageQuery } from "../posts/posts.server.ts";
import { adWindowRows } from "../site/ads.server.ts";
import { nowIso } from "./db.server.ts";
import {
  MAX_SIZED_TEMPLATES,
  type QueryValues,
  type ReusableQuery,
  reusableQuery,
  reusesQueries,
} from "./reusable-query.server.ts";
import { NUL_TEXT_MESSAGE } from "./text-guard.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database;
  await db
    .insertInto("siteSettings")
    .values(
      (
        [
          ["reuse.a", "one"],
          ["reuse.b", "two"],
          ["reuse.c", "three"],
        ] as const
      ).map(([key, value]) => ({ key, value, createdAt: nowIso(), updatedAt: nowIso() })),
    )
    .execute();
});
afterAll(async () => {
  await database.cleanup();
});

/** Settings by key prefix, longest value first: a value in a join-free query, a constant and a limit. */
const settingsLike = reusableQuery(
  ["from", "to", "limit"],
  (db, v: { from: string; to: string; limit: number }) =>
    db
      .selectFrom("siteSettings")
      .select(["key", "value"])
      .where("key", ">=", v.from)
      .where("key", "<", v.to)
      .where("value", "!=", "never")
      .orderBy("key", "desc")
      .limit(v.limit),
  ["limit"],
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

  it("keep a template per sized value, at most MAX_SIZED_TEMPLATES, then build afresh", async () => {
    const { db } = database;
    const sizes = Array.from({ length: MAX_SIZED_TEMPLATES + 3 }, (_, i) => i + 1);
    for (const limit of sizes) {
      const values = { from: "reuse.", to: "reuse/", limit };
      const reused = settingsLike.compile(db, values);
      // On SQLite the size is in the SQL (a `limit ?` is compiled again on every run).
      if (database.dialect === "sqlite") expect(reused.sql).toMatch(new RegExp(` limit ${limit}$`));
      const fresh = settingsLike.build(db, values).compile();
      expect([reused.sql, reused.parameters]).toEqual([fresh.sql, fresh.parameters]);
      expect(await settingsLike.execute(db, values)).toHaveLength(Math.min(limit, 3));
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

  it("the reading pages' queries compile as a fresh build does, for both languages", () => {
    const { db } = database;
    const { postDetailRow, neighbourRows, relatedByWalk, relatedByTags, pastWalk } = POST_PAGE_QUERIES;
    const shapes = [false, true].flatMap((category) =>
      [false, true].flatMap((tag) =>
        [false, true].flatMap((author) => [false, true].map((from) => ({ category, tag, author, from }))),
      ),
    );
    for (const [locale, other] of [
      ["en", "zh"],
      ["zh", "en"],
    ] as const) {
      const checks: [ReusableQuery<QueryValues, unknown>, QueryValues][] = [
        [postDetailRow, { id: `post-${locale}`, locale, other }],
        [neighbourRows, { id: "p1", publishedAt: "2026-01-01T00:00:00.000Z", locale, other }],
        [relatedByWalk, { postId: "p3", locale, other }],
        [relatedByTags, { postId: "p4", locale, other }],
        [pastWalk, {}],
        [COMMENT_QUERIES.anonymous, { postId: `p-${locale}`, viewerId: "" }],
        [COMMENT_QUERIES.signedIn, { postId: `p-${locale}`, viewerId: "u1" }],
        [adWindowRows, { placement: "sidebar", now: `2026-03-0${locale === "en" ? 1 : 2}T00:00:00.000Z` }],
        [reactionRows, { postId: `p-${locale}` }],
        ...shapes.map((shape, i): [ReusableQuery<QueryValues, unknown>, QueryValues] => [
          listPageQuery(shape),
          {
            locale,
            other,
            categoryId: "cat",
            tagId: "tag",
            authorId: "author",
            fromPublishedAt: "2026-04-01T00:00:00.000Z",
            fromId: "anchor",
            pageSize: 10 + i,
            offset: 20 + i,
          },
        ]),
      ];
      for (const [query, values] of checks) {
        const reused = query.compile(db, values);
        const fresh = query.build(db, values).compile();
        expect([reused.sql, reused.parameters]).toEqual([fresh.sql, fresh.parameters]);
        const first = Object.values(values)[0];
        if (first !== undefined) expect(reused.parameters).toContain(first);
      }
    }
  });
});
