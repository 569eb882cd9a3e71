import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { queueMail } from "./outbox.server.ts";
import { relaxedOutcomeWrites } from "./relaxed-writes.server.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

describe(`relaxed outcome writes (${testDialect()})`, () => {
  it("commits the write, and leaves the site's own writes fully durable afterwards", async () => {
    const { db, dialect } = database;
    await queueMail(db, { key: "relaxed:1", kind: "test", to: "a@example.test", subject: "s", text: "t" });
    const write = relaxedOutcomeWrites(db, dialect);
    let seen = "";
    await write(async (w) => {
      if (dialect === "sqlite") {
        const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(w);
        seen = String(rows[0]?.synchronous);
      } else {
        const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(w);
        seen = String(rows[0]?.synchronous_commit);
      }
      await w.updateTable("mailOutbox").set({ status: "sent" }).where("key", "=", "relaxed:1").execute();
    });
    // NORMAL (1) on SQLite, off on PostgreSQL, for that write only.
    expect(seen).toBe(dialect === "sqlite" ? "1" : "off");
    const row = await db.selectFrom("mailOutbox").select("status").where("key", "=", "relaxed:1").executeTakeFirst();
    expect(row?.status).toBe("sent");
    if (dialect === "sqlite") {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(Number(rows[0]?.synchronous)).toBe(2); // FULL
    } else {
      const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
      expect(rows[0]?.synchronous_commit).toBe("on");
    }
  });

  it("puts the durable setting back when the write fails", async () => {
    const { db, dialect } = database;
    const write = relaxedOutcomeWrites(db, dialect);
    await expect(write(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    if (dialect === "sqlite") {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      expect(Number(rows[0]?.synchronous)).toBe(2);
    }
  });
});
