import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { NUL_TEXT_MESSAGE, RefuseNulText } from "./text-guard.server.ts";

interface Tables {
  notes: { id: number; body: string };
}

describe("RefuseNulText", () => {
  let db: Kysely<Tables> | undefined;
  afterEach(async () => {
    await db?.destroy();
  });

  async function open(): Promise<Kysely<Tables>> {
    db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: new SQLite(":memory:") }),
      plugins: [new RefuseNulText()],
    });
    await sql`create table notes (id integer primary key, body text not null)`.execute(db);
    return db;
  }

  async function refusal(run: () => Promise<unknown>): Promise<Response> {
    const thrown = await run().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    return thrown as Response;
  }

  it("refuses NUL in inserted values, WHERE parameters, IN lists and raw SQL with a 400", async () => {
    const db = await open();
    const cases = [
      () => db.insertInto("notes").values({ id: 1, body: "a\u0000b" }).execute(),
      () =>
        db
          .insertInto("notes")
          .values([
            { id: 2, body: "fine" },
            { id: 3, body: "\u0000" },
          ])
          .execute(),
      () => db.selectFrom("notes").selectAll().where("body", "=", "x\u0000").execute(),
      () => db.selectFrom("notes").selectAll().where("body", "in", ["ok", "\u0000"]).execute(),
      () => db.updateTable("notes").set({ body: "\u0000" }).execute(),
      () => sql`select ${"\u0000"} as v`.execute(db),
    ];
    for (const run of cases) {
      const res = await refusal(run);
      expect(res.status).toBe(400);
      expect(await res.text()).toBe(NUL_TEXT_MESSAGE);
    }
    expect(await db.selectFrom("notes").selectAll().execute()).toEqual([]);
  });

  it("lets every other text through, control characters and Chinese included", async () => {
    const db = await open();
    await db
      .insertInto("notes")
      .values([
        { id: 1, body: "中文 \u0001\t\n\u200f" },
        { id: 2, body: "plain" },
      ])
      .execute();
    const rows = await db.selectFrom("notes").select("body").where("id", "in", [1, 2]).orderBy("id").execute();
    expect(rows.map((r) => r.body)).toEqual(["中文 \u0001\t\n\u200f", "plain"]);
  });
});
