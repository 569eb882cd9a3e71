import type { KyselyPlugin } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { latestAudit } from "../admin/audit.server.ts";
import type { ImportCandidate, ImportFileRead } from "./subscriber-csv.server.ts";
import {
  IMPORT_MAX_FAILURES,
  importNextChunk,
  noteImportFailure,
  queueSubscriberImport,
  recentImports,
} from "./subscriber-import.server.ts";
import { startSubscriberImports } from "./subscriber-import-job.server.ts";
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

const fileOf = (candidates: ImportCandidate[], extra: Partial<ImportFileRead> = {}): ImportFileRead => ({
  candidates,
  duplicates: 0,
  notSubscribed: 0,
  invalid: 0,
  problems: [],
  ...extra,
});

const queue = (candidates: ImportCandidate[], extra: Partial<ImportFileRead> = {}, fileName = "members.csv") =>
  queueSubscriberImport(database.db, admin, { fileName, defaultLanguages: "en", read: fileOf(candidates, extra) }, NOW);

const row = (email: string) =>
  database.db.selectFrom("subscribers").selectAll().where("email", "=", email).executeTakeFirstOrThrow();

const job = (id: string) =>
  database.db.selectFrom("subscriberImports").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function count(table: "subscriberImportRows" | "subscribers", like?: string): Promise<number> {
  let query = database.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("n"));
  if (table === "subscribers" && like) query = query.where("email", "like", like);
  const { n } = await query.executeTakeFirstOrThrow();
  return Number(n);
}

/** Runs the worker's steps to the end, as the job would. */
async function drain(db = database.db): Promise<void> {
  for (let i = 0; i < 100; i++) if ((await importNextChunk(db, NOW)) === "idle") return;
  throw new Error("the import never finished");
}

const importAudits = async () =>
  (await latestAudit(database.db, 100)).filter((e) => e.action === "subscribers.import").length;

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

describe("a subscriber import", () => {
  it("adds new addresses as confirmed, leaves every known one as it was, audits, and keeps only the report", async () => {
    const before = await row("gone@example.test");
    const problems = [{ line: 9, reason: "emailInvalid" as const, value: "nope" }];
    const id = await queue(
      [
        candidate("new1@example.test", { languages: "both", locale: "zh", createdAt: "2023-01-15T10:20:30.000Z" }),
        candidate("new2@example.test", { languages: "zh", locale: "zh" }),
        candidate("pending@example.test"),
        candidate("confirmed@example.test"),
        candidate("gone@example.test"),
      ],
      { duplicates: 1, notSubscribed: 2, invalid: 1, problems },
    );
    expect(await job(id)).toMatchObject({ status: "queued", total: 5, processed: 0 });
    expect(await count("subscriberImportRows")).toBe(5);

    await drain();

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
    const two = await row("new2@example.test");
    expect(two.createdAt).toBe(NOW.toISOString());
    expect(two.unsubscribeTokenHash).not.toBe(one.unsubscribeTokenHash);
    // Someone who unsubscribed stays unsubscribed, untouched.
    expect(await row("gone@example.test")).toEqual(before);
    expect((await row("pending@example.test")).status).toBe("pending");

    // The candidate rows (personal data) are gone; the counts and the bounded report stay.
    expect(await count("subscriberImportRows")).toBe(0);
    const [shown] = await recentImports(database.db);
    expect(shown).toMatchObject({
      id,
      status: "done",
      total: 5,
      processed: 5,
      imported: 2,
      existing: 3,
      duplicates: 1,
      notSubscribed: 2,
      invalid: 1,
      problems,
      finishedAt: NOW.toISOString(),
    });
    const [entry] = await latestAudit(database.db, 1);
    expect(entry).toMatchObject({
      action: "subscribers.import",
      actorEmail: admin.email,
      details: { fileName: "members.csv", imported: 2, existing: 3, duplicates: 1, notSubscribed: 2, invalid: 1 },
    });
  });

  it("works a chunk per step, and resumes from the cursor after a crash mid-chunk without doubling a row", async () => {
    const many = Array.from({ length: 1200 }, (_, i) => candidate(`bulk${i}@example.test`, { line: i + 2 }));
    const id = await queue(many, {}, "bulk.csv");
    const auditsBefore = await importAudits();

    expect(await importNextChunk(database.db, NOW)).toBe("progress");
    expect(await job(id)).toMatchObject({ status: "running", processed: 500, imported: 500 });
    expect(await count("subscriberImportRows")).toBe(700);

    // The next chunk's write fails after its inserts, as a kill or a full disk would: nothing of it stays.
    const failDelete: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === "DeleteQueryNode") throw new Error("killed");
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    await expect(importNextChunk(database.db.withPlugin(failDelete), NOW)).rejects.toThrow("killed");
    expect(await job(id)).toMatchObject({ status: "running", processed: 500, imported: 500 });
    expect(await count("subscribers", "bulk%")).toBe(500);

    // A fresh worker (a restarted process) carries on from the cursor.
    await drain();
    expect(await job(id)).toMatchObject({ status: "done", processed: 1200, imported: 1200, existing: 0 });
    expect(await count("subscribers", "bulk%")).toBe(1200);
    expect(await importAudits()).toBe(auditsBefore + 1);

    // Running again does nothing more: no second audit entry, nothing written.
    expect(await importNextChunk(database.db, NOW)).toBe("idle");
    expect(await importAudits()).toBe(auditsBefore + 1);

    // Uploading the same file again changes nothing: every address is on the list.
    const again = await queue(many.slice(0, 10), {}, "bulk.csv");
    await drain();
    expect(await job(again)).toMatchObject({ status: "done", imported: 0, existing: 10 });
  });

  it("never moves the cursor twice when two runs race on one chunk", async () => {
    const id = await queue(Array.from({ length: 30 }, (_, i) => candidate(`race${i}@example.test`)));
    await Promise.all([importNextChunk(database.db, NOW, 10), importNextChunk(database.db, NOW, 10)]);
    await drain();
    expect(await job(id)).toMatchObject({ status: "done", processed: 30, imported: 30, existing: 0 });
    expect(await count("subscribers", "race%")).toBe(30);
  });

  it("is given up after repeated failures, its stored rows deleted", async () => {
    const id = await queue([candidate("doomed@example.test")]);
    for (let i = 1; i < IMPORT_MAX_FAILURES; i++) expect(await noteImportFailure(database.db, NOW)).toBe(false);
    expect(await noteImportFailure(database.db, NOW)).toBe(true);
    expect(await job(id)).toMatchObject({ status: "failed", finishedAt: NOW.toISOString() });
    expect(await count("subscriberImportRows")).toBe(0);
    expect(await importNextChunk(database.db, NOW)).toBe("idle");
  });

  it("is finished by the worker as soon as it is poked", async () => {
    const worker = startSubscriberImports(database.db, pino({ level: "silent" }), {
      intervalMs: 60_000,
      holder: "test-holder",
    });
    try {
      await worker.idle();
      const id = await queue([candidate("poked@example.test")]);
      worker.poke();
      await worker.idle();
      expect(await job(id)).toMatchObject({ status: "done", imported: 1 });
    } finally {
      await worker.stop();
    }
  });
});
