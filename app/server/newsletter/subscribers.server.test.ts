import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import {
  confirmSubscription,
  findSubscriberByEmail,
  hashSubscriberToken,
  requestSubscription,
  type SubscribeOutcome,
  unsubscribe,
} from "./subscribers.server.ts";

const TEST_SECRET = "a-test-secret-of-at-least-thirty-two-characters";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

let n = 0;
const address = (tag: string) => `${tag}-${++n}@example.test`;

function pending(outcome: SubscribeOutcome) {
  if (outcome.kind !== "pending") throw new Error(`expected a pending outcome, got ${outcome.kind}`);
  return outcome;
}

async function rawRow(email: string) {
  return database.db
    .selectFrom("subscribers")
    .select(["status", "confirmTokenHash", "unsubscribeTokenHash", "updatedAt"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
}

describe("subscribers repository", () => {
  it("stores a pending row with a normalised address and only token hashes", async () => {
    const email = address("new");
    const out = pending(await requestSubscription(database.db, { email: `  ${email.toUpperCase()} `, locale: "zh" }));
    expect(out.subscriber).toMatchObject({ email, locale: "zh", status: "pending", confirmedAt: null });
    expect(out.confirmToken).not.toBe(out.unsubscribeToken);
    const row = await rawRow(email);
    expect(row.confirmTokenHash).toBe(hashSubscriberToken(out.confirmToken));
    expect(row.unsubscribeTokenHash).toBe(hashSubscriberToken(out.unsubscribeToken));
    expect(JSON.stringify(row)).not.toContain(out.confirmToken);
  });

  it("re-requesting while pending keeps one row and replaces the tokens", async () => {
    const email = address("again");
    const first = pending(await requestSubscription(database.db, { email, locale: "en" }));
    const second = pending(await requestSubscription(database.db, { email, locale: "en" }));
    expect(second.subscriber.id).toBe(first.subscriber.id);
    expect(second.confirmToken).not.toBe(first.confirmToken);
    expect(await confirmSubscription(database.db, first.confirmToken)).toEqual({ kind: "invalid" });
    const rows = await database.db.selectFrom("subscribers").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(1);
  });

  it("confirms with the confirmation token only, idempotently", async () => {
    const email = address("confirm");
    const out = pending(await requestSubscription(database.db, { email, locale: "en" }));
    // The unsubscribe token is single-purpose: it does not confirm.
    expect(await confirmSubscription(database.db, out.unsubscribeToken)).toEqual({ kind: "invalid" });
    const done = await confirmSubscription(database.db, out.confirmToken);
    expect(done.kind).toBe("done");
    const after = await findSubscriberByEmail(database.db, email);
    expect(after?.status).toBe("confirmed");
    expect(after?.confirmedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = await confirmSubscription(database.db, out.confirmToken);
    expect(again.kind).toBe("done");
    expect((await findSubscriberByEmail(database.db, email))?.updatedAt).toBe(after?.updatedAt);
  });

  it("leaves a confirmed address untouched when it subscribes again", async () => {
    const email = address("confirmed");
    const out = pending(await requestSubscription(database.db, { email, locale: "en" }));
    await confirmSubscription(database.db, out.confirmToken);
    const before = await rawRow(email);
    expect(await requestSubscription(database.db, { email, locale: "zh" })).toEqual({ kind: "alreadyConfirmed" });
    expect(await rawRow(email)).toEqual(before);
    expect((await findSubscriberByEmail(database.db, email))?.locale).toBe("en");
  });

  it("refuses tampered and unknown tokens without changing anything", async () => {
    const email = address("tamper");
    const out = pending(await requestSubscription(database.db, { email, locale: "en" }));
    const before = await rawRow(email);
    const tampered = `${out.confirmToken.slice(0, -1)}${out.confirmToken.endsWith("A") ? "B" : "A"}`;
    expect(await confirmSubscription(database.db, tampered)).toEqual({ kind: "invalid" });
    expect(await confirmSubscription(database.db, "")).toEqual({ kind: "invalid" });
    expect(await confirmSubscription(database.db, "x".repeat(5000))).toEqual({ kind: "invalid" });
    expect(await unsubscribe(database.db, `${out.unsubscribeToken}x`, TEST_SECRET)).toEqual({ kind: "invalid" });
    expect(await unsubscribe(database.db, out.confirmToken, TEST_SECRET)).toEqual({ kind: "invalid" });
    expect(await rawRow(email)).toEqual(before);
  });

  it("unsubscribes, idempotently, and a later confirm link does not resubscribe", async () => {
    const email = address("unsub");
    const out = pending(await requestSubscription(database.db, { email, locale: "en" }));
    await confirmSubscription(database.db, out.confirmToken);
    const done = await unsubscribe(database.db, out.unsubscribeToken, TEST_SECRET);
    expect(done.kind === "done" && done.subscriber.status).toBe("unsubscribed");
    const row = await findSubscriberByEmail(database.db, email);
    expect(row?.unsubscribedAt).toMatch(/^\d{4}-/);
    expect((await unsubscribe(database.db, out.unsubscribeToken, TEST_SECRET)).kind).toBe("done");
    expect(await confirmSubscription(database.db, out.confirmToken)).toEqual({ kind: "invalid" });
    expect((await findSubscriberByEmail(database.db, email))?.status).toBe("unsubscribed");
  });

  it("a pending address can unsubscribe before confirming", async () => {
    const email = address("early");
    const out = pending(await requestSubscription(database.db, { email, locale: "en" }));
    expect((await unsubscribe(database.db, out.unsubscribeToken, TEST_SECRET)).kind).toBe("done");
    expect(await confirmSubscription(database.db, out.confirmToken)).toEqual({ kind: "invalid" });
  });

  it("subscribing after unsubscribing starts a new opt-in", async () => {
    const email = address("resub");
    const first = pending(await requestSubscription(database.db, { email, locale: "en" }));
    await confirmSubscription(database.db, first.confirmToken);
    await unsubscribe(database.db, first.unsubscribeToken, TEST_SECRET);
    const second = pending(await requestSubscription(database.db, { email, locale: "zh" }));
    expect(second.subscriber).toMatchObject({
      id: first.subscriber.id,
      status: "pending",
      locale: "zh",
      confirmedAt: null,
      unsubscribedAt: null,
    });
    // The old links are dead; the new ones work.
    expect(await unsubscribe(database.db, first.unsubscribeToken, TEST_SECRET)).toEqual({ kind: "invalid" });
    expect((await confirmSubscription(database.db, second.confirmToken)).kind).toBe("done");
    expect((await findSubscriberByEmail(database.db, email))?.status).toBe("confirmed");
  });

  it("two concurrent requests for one address leave one row", async () => {
    const email = address("race");
    const outcomes = await Promise.all([
      requestSubscription(database.db, { email, locale: "en" }),
      requestSubscription(database.db, { email: email.toUpperCase(), locale: "en" }),
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["pending", "pending"]);
    const rows = await database.db.selectFrom("subscribers").select("id").where("email", "=", email).execute();
    expect(rows).toHaveLength(1);
    // Whichever write came last owns the row: exactly one of the two links confirms.
    const results = [];
    for (const o of outcomes) results.push((await confirmSubscription(database.db, pending(o).confirmToken)).kind);
    expect(results.filter((k) => k === "done")).toHaveLength(1);
  });
});
