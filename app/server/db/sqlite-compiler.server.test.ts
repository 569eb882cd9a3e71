import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { Database } from "./schema.server.ts";
import { InliningSqliteQueryCompiler } from "./sqlite-compiler.server.ts";

const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new SqliteIntrospector(k),
    createQueryCompiler: () => new InliningSqliteQueryCompiler(),
  },
});

describe("InliningSqliteQueryCompiler", () => {
  it("writes a whole-number LIMIT into the SQL, and leaves OFFSET bound", () => {
    const q = db.selectFrom("posts").select("id").orderBy("publishedAt", "desc").limit(10).offset(20).compile();
    expect(q.sql).toBe('select "id" from "posts" order by "publishedAt" desc limit 10 offset +?');
    expect(q.parameters).toEqual([20]);
  });

  it("writes LIMITs of subqueries and compound selects too", () => {
    const q = db
      .selectFrom((s) => s.selectFrom("posts").select("id").limit(3).as("p"))
      .select("p.id")
      .unionAll(db.selectFrom("posts").select("id").limit(1))
      .compile();
    expect(q.sql).toContain("limit 3");
    expect(q.sql).toContain("limit 1");
    expect(q.parameters).toEqual([]);
  });

  it("binds a LIMIT that is not a whole number of at least 0", () => {
    for (const limit of [2.5, -1, Number.MAX_SAFE_INTEGER + 2]) {
      const q = db.selectFrom("posts").select("id").limit(limit).compile();
      expect(q.sql).toBe('select "id" from "posts" limit +?');
      expect(q.parameters).toEqual([limit]);
    }
  });

  it("writes an equality with 0 or 1 into the SQL, and binds every other value as +?", () => {
    const q = db
      .selectFrom("posts")
      .select("id")
      .where("featured", "=", 1)
      .where("newsletter", "is", 0)
      .where("federate", "!=", 1)
      .where("viewCount", "=", 2)
      .where("status", "=", "published")
      .where("version", ">", 0)
      .compile();
    expect(q.sql).toBe(
      'select "id" from "posts" where "featured" = 1 and "newsletter" is 0 and "federate" != +? and "viewCount" = +? and "status" = +? and "version" > +?',
    );
    expect(q.parameters).toEqual([1, 2, "published", 0]);
  });

  it("is the compiler of the databases openDatabase opens on SQLite, with the same rows", async () => {
    const database = await createTestDatabase();
    try {
      const query = database.db.selectFrom("siteSettings").select("key").orderBy("key").limit(2);
      const compiled = query.compile();
      if (testDialect() === "sqlite") expect(compiled.sql).toMatch(/ limit 2$/);
      else expect(compiled.sql).toMatch(/ limit \$1$/);
      await database.db
        .insertInto("siteSettings")
        .values(["a", "b", "c"].map((key) => ({ key, value: key, createdAt: "x", updatedAt: "x" })))
        .execute();
      expect((await query.execute()).map((r) => r.key)).toEqual(["a", "b"]);
    } finally {
      await database.cleanup();
    }
  });
});
