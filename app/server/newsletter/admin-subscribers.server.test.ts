import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { listSubscribersForAdmin, subscribersForExport } from "./admin-subscribers.server.ts";
import { confirmSubscription, requestSubscription, unsubscribe } from "./subscribers.server.ts";

const TEST_SECRET = "a-test-secret-of-at-least-thirty-two-characters";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 0, minute));
  await requestSubscription(database.db, { email: "pending@example.test", locale: "en" }, at(1));
  const c = await requestSubscription(database.db, { email: "=conf_1@example.test", locale: "zh" }, at(2));
  if (c.kind !== "pending") throw new Error("not pending");
  await confirmSubscription(database.db, c.confirmToken);
  const u = await requestSubscription(database.db, { email: "gone%@example.test", locale: "en" }, at(3));
  if (u.kind !== "pending") throw new Error("not pending");
  await unsubscribe(database.db, u.unsubscribeToken, TEST_SECRET);
  // Each reads their own page's language but the confirmed one, who chose both and then bounced three times.
  await database.db
    .updateTable("subscribers")
    .set({ languages: "en" })
    .where("email", "in", ["pending@example.test", "gone%@example.test"])
    .execute();
  await database.db
    .updateTable("subscribers")
    .set({ languages: "both", bounceCount: 3, bouncedAt: "2026-11-20T08:00:00.000Z" })
    .where("email", "=", "=conf_1@example.test")
    .execute();
});
afterAll(async () => {
  await database.cleanup();
});

describe("listSubscribersForAdmin", () => {
  it("lists newest first, filters by status (allowlist) and searches e-mail literally", async () => {
    const all = await listSubscribersForAdmin(database.db, { page: 1, pageSize: 10 });
    expect(all.items.map((s) => s.email)).toEqual([
      "gone%@example.test",
      "=conf_1@example.test",
      "pending@example.test",
    ]);
    const confirmed = await listSubscribersForAdmin(database.db, { status: "confirmed", page: 1, pageSize: 10 });
    expect(confirmed.items.map((s) => [s.email, s.status, s.locale])).toEqual([
      ["=conf_1@example.test", "confirmed", "zh"],
    ]);
    expect(confirmed.items[0]?.confirmedAt).not.toBeNull();
    const bogus = await listSubscribersForAdmin(database.db, { status: "x' or 1=1", page: 1, pageSize: 10 });
    expect(bogus.total).toBe(3);
    expect((await listSubscribersForAdmin(database.db, { q: "%", page: 1, pageSize: 10 })).total).toBe(1);
    expect((await listSubscribersForAdmin(database.db, { q: "_1", page: 1, pageSize: 10 })).total).toBe(1);
    const paged = await listSubscribersForAdmin(database.db, { page: 5, pageSize: 2 });
    expect(paged).toMatchObject({ page: 2, pageCount: 2, total: 3 });
  });

  it("shows the language choice and the bounce, and filters the bounced", async () => {
    const all = await listSubscribersForAdmin(database.db, { page: 1, pageSize: 10 });
    expect(all.items.map((s) => [s.email, s.languages, s.bounceCount, s.bouncedAt])).toEqual([
      ["gone%@example.test", "en", 0, null],
      ["=conf_1@example.test", "both", 3, "2026-11-20T08:00:00.000Z"],
      ["pending@example.test", "en", 0, null],
    ]);
    const bounced = await listSubscribersForAdmin(database.db, { status: "bounced", page: 1, pageSize: 10 });
    expect(bounced.items.map((s) => s.email)).toEqual(["=conf_1@example.test"]);
    // A bounced reader keeps their status: the status filters still find them.
    const confirmed = await listSubscribersForAdmin(database.db, { status: "confirmed", page: 1, pageSize: 10 });
    expect(confirmed.total).toBe(1);
  });

  it("orders oldest first or by e-mail on request", async () => {
    const order = async (sort: "newest" | "oldest" | "email") =>
      (await listSubscribersForAdmin(database.db, { sort, page: 1, pageSize: 10 })).items.map((s) => s.email);
    expect(await order("oldest")).toEqual(["pending@example.test", "=conf_1@example.test", "gone%@example.test"]);
    expect(await order("email")).toEqual(["=conf_1@example.test", "gone%@example.test", "pending@example.test"]);
    expect(await order("newest")).toEqual(["gone%@example.test", "=conf_1@example.test", "pending@example.test"]);
  });

  it("exports every match oldest first", async () => {
    const rows = await subscribersForExport(database.db, {});
    expect(rows.map((s) => s.email)).toEqual(["pending@example.test", "=conf_1@example.test", "gone%@example.test"]);
    expect((await subscribersForExport(database.db, { status: "unsubscribed" })).map((s) => s.status)).toEqual([
      "unsubscribed",
    ]);
    expect((await subscribersForExport(database.db, { status: "bounced" })).map((s) => s.bouncedAt)).toEqual([
      "2026-11-20T08:00:00.000Z",
    ]);
  });
});
