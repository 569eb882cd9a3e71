import type { KyselyPlugin } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import type { ImportCandidate } from "../admin/subscriber-csv.server.ts";
import { latestAudit } from "./audit.server.ts";
import { importSubscribers } from "./subscriber-import.server.ts";
import { confirmSubscription, requestSubscription, unsubscribe } from "./subscribers.server.ts";

let database: TestDatabase;
const admin = { id: "admin-1", email: "owner@example.test" };
const NOW = new Date("2026-11-26T12:00:00.000Z");

const candidate = (email: string, extra: Partial<ImportCandidate> = {}): ImportCandidate => ({
  line: 2,
  email,
  languages: "en",
  locale: "en",
  createdAt: null,
  ...extra,
});

const row = (email: string) =>
  database.db.selectFrom("subscribers").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

beforeAll(async () => {
  database = await createTestDatabase();
  await requestSubscription(database.db, { email: "pending@example.test", locale: "zh" });
  const c = await requestSubscription(database.db, { email: "confirmed@example.test", locale: "zh" });
  if (c.kind === "pending") await confirmSubscription(database.db, c.confirmToken);
  const u = await requestSubscription(database.db, { email: "gone@example.test", locale: "en" });
  if (u.kind === "pending")
    await unsubscribe(database.db, u.unsubscribeToken, "a-test-secret-of-at-least-thirty-two-characters");
});
afterAll(async () => {
  await database.cleanup();
});

describe("importSubscribers", () => {
  it("adds new addresses as confirmed, leaves every known one as it was, and audits", async () => {
    const before = await row("gone@example.test");
    const outcome = await importSubscribers(
      database.db,
      admin,
      [
        candidate("new1@example.test", { languages: "both", locale: "zh", createdAt: "2023-01-15T10:20:30.000Z" }),
        candidate("new2@example.test", { languages: "zh", locale: "zh" }),
        candidate("pending@example.test"),
        candidate("confirmed@example.test"),
        candidate("gone@example.test"),
      ],
      { fileName: "members.csv" },
      NOW,
    );
    expect(outcome).toEqual({ imported: 2, existing: 3 });

    const one = await row("new1@example.test");
    expect(one).toMatchObject({
      status: "confirmed",
      languages: "both",
      locale: "zh",
      createdAt: "2023-01-15T10:20:30.000Z",
      confirmedAt: NOW.toISOString(),
      unsubscribedAt: null,
      bounceCount: 0,
      bouncedAt: null,
    });
    expect(one.confirmTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(one.unsubscribeTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const two = await row("new2@example.test");
    expect(two.createdAt).toBe(NOW.toISOString());
    expect(two.unsubscribeTokenHash).not.toBe(one.unsubscribeTokenHash);

    // Someone who unsubscribed stays unsubscribed, untouched.
    expect(await row("gone@example.test")).toEqual(before);
    expect((await row("pending@example.test")).status).toBe("pending");

    const [entry] = await latestAudit(database.db, 1);
    expect(entry).toMatchObject({
      action: "subscribers.import",
      actorEmail: admin.email,
      details: { fileName: "members.csv", imported: 2, existing: 3 },
    });
  });

  it("writes in batches, and nothing at all when any batch fails", async () => {
    const many = Array.from({ length: 1200 }, (_, i) => candidate(`bulk${i}@example.test`));
    // The third insert statement fails, as a full disk or a lost connection would.
    let inserts = 0;
    const failThird: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === "InsertQueryNode" && ++inserts === 3) throw new Error("disk full");
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    await expect(importSubscribers(database.db.withPlugin(failThird), admin, many)).rejects.toThrow("disk full");
    expect(inserts).toBe(3);
    const count = await database.db
      .selectFrom("subscribers")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("email", "like", "bulk%")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);

    expect(await importSubscribers(database.db, admin, many)).toEqual({ imported: 1200, existing: 0 });
    expect(await importSubscribers(database.db, admin, many.slice(0, 10))).toEqual({ imported: 0, existing: 10 });
  });
});
