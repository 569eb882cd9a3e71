import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ImportCandidate } from "../../app/server/newsletter/subscriber-csv.server.ts";
import { importNextChunk, queueSubscriberImport } from "../../app/server/newsletter/subscriber-import.server.ts";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";

// A subscriber import in the real server's background worker, killed with SIGKILL in the
// middle: what it left is consistent (every committed chunk whole, the cursor matching the
// rows written), and a fresh worker finishes it without adding anyone twice.

/** Ten chunks: the kill comes right after the first commits, long before the last. */
const ROWS = 5000;

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe(`a subscriber import through the server (${testDialect()})`, () => {
  let site: Site;

  beforeAll(async () => {
    site = await startSite({});
  });
  afterAll(async () => {
    await site?.stop();
  });

  it("survives a kill -9 mid-import and finishes with every address once", async () => {
    const candidates: ImportCandidate[] = Array.from({ length: ROWS }, (_, i) => ({
      line: i + 2,
      email: `imported${i}@example.test`,
      languages: "en",
      locale: "en",
      createdAt: null,
    }));
    const id = await queueSubscriberImport(
      site.db,
      { id: "admin-1", email: "owner@example.test" },
      {
        fileName: "big.csv",
        defaultLanguages: "en",
        read: { candidates, duplicates: 0, notSubscribed: 0, invalid: 0, problems: [] },
      },
    );
    const state = () =>
      site.db
        .selectFrom("subscriberImports")
        .select(["status", "processed", "imported"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
    // The server's worker finds it on its next round (within IMPORT_INTERVAL_MS) and commits its first chunk.
    await until("the first chunk", state, (s) => s.processed > 0);
    await site.server.stop("SIGKILL");

    const atKill = await state();
    expect(atKill.status).toBe("running");
    expect(atKill.processed).toBeLessThan(ROWS);
    const subscribers = async () =>
      Number(
        (
          await site.db
            .selectFrom("subscribers")
            .select((eb) => eb.fn.countAll<number | string>().as("n"))
            .where("email", "like", "imported%")
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Whole chunks only: the cursor, the count and the rows written agree.
    expect(atKill.processed % 500).toBe(0);
    expect(atKill.imported).toBe(atKill.processed);
    expect(await subscribers()).toBe(atKill.processed);

    // A fresh worker (as after a restart) carries on from the cursor.
    while ((await importNextChunk(site.db)) !== "idle") {}
    expect(await state()).toEqual({ status: "done", processed: ROWS, imported: ROWS });
    expect(await subscribers()).toBe(ROWS);
    const left = await site.db
      .selectFrom("subscriberImportRows")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  }, 90_000);
});
