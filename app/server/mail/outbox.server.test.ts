import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MailCapture, startMailCapture } from "../../../tests/setup/mail-capture.ts";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import { bulkCollector } from "../platform/bulk-gc.server.ts";
import type { Env } from "../platform/env.server.ts";
import { createMailer } from "./message.server.ts";
import { deliverOne, dueMail, queueMail, RETRY_WINDOW_MS, retryDelayMs, startMailWorker } from "./outbox.server.ts";
import { createMailTransport, type Envelope, type MailTransport } from "./transport.server.ts";

// The outbox against a real SMTP peer (smtp-server): sent, retried later on a 4xx,
// failed with the reply on a 5xx, never queued twice under one key.

const silent = pino({ level: "silent" });
let database: TestDatabase;
let capture: MailCapture;
let smtp: MailTransport;

beforeAll(async () => {
  database = await createTestDatabase();
  capture = await startMailCapture({
    refuse: (address) =>
      address.startsWith("later@")
        ? { code: 451, message: "451 4.3.0 try again later" }
        : address.startsWith("nobody@")
          ? { code: 550, message: "550 5.1.1 no such mailbox" }
          : null,
  });
  smtp = createMailTransport(
    { smtpUrl: capture.smtpUrl, mailFrom: "Blog <blog@example.test>", dataDir: "/nonexistent" } as Env,
    silent,
  );
});

afterAll(async () => {
  await smtp.close?.();
  await capture.close();
  await database.cleanup();
});

beforeEach(async () => {
  await database.db.deleteFrom("mailOutbox").execute();
  capture.messages.length = 0;
});

const message = (to: string, key = `test:${to}`) => ({ key, kind: "test", to, subject: `Hello ${to}`, text: "Body" });
const rowOf = (key: string) =>
  database.db.selectFrom("mailOutbox").selectAll().where("key", "=", key).executeTakeFirstOrThrow();

describe(`mail outbox (${testDialect()})`, () => {
  it("queues a key once, however often it is queued", async () => {
    expect(await queueMail(database.db, message("a@example.test", "newsletter:p1:s1"))).toBe(true);
    expect(await queueMail(database.db, message("a@example.test", "newsletter:p1:s1"))).toBe(false);
    expect(await dueMail(database.db, 10)).toHaveLength(1);
  });

  it("sends a due mail and marks it sent", async () => {
    await queueMail(database.db, message("reader@example.test"));
    const [due] = await dueMail(database.db, 10);
    if (!due) throw new Error("nothing due");
    expect(await deliverOne(database.db, smtp, due)).toBe("sent");
    expect(capture.messages.map((m) => [m.to, m.subject])).toEqual([
      [["reader@example.test"], "Hello reader@example.test"],
    ]);
    const row = await rowOf("test:reader@example.test");
    expect(row).toMatchObject({ status: "sent", lastError: null });
    expect(Number(row.attempts)).toBe(1);
    expect(await dueMail(database.db, 10)).toEqual([]);
  });

  it("keeps a mail the server asks to retry, with growing waits, for 24 hours", async () => {
    const t0 = new Date("2026-11-25T00:00:00.000Z");
    await queueMail(database.db, message("later@example.test"), t0);
    const [due] = await dueMail(database.db, 10, t0);
    if (!due) throw new Error("nothing due");
    expect(await deliverOne(database.db, smtp, due, () => t0)).toBe("retry");
    const row = await rowOf("test:later@example.test");
    expect(row.status).toBe("queued");
    expect(row.lastError).toContain("451");
    expect(Date.parse(row.nextAttemptAt) - t0.getTime()).toBe(retryDelayMs(1));
    expect(await dueMail(database.db, 10, t0)).toEqual([]);
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));

    // Past the retry window the same temporary answer is final.
    const late = new Date(t0.getTime() + RETRY_WINDOW_MS);
    const [again] = await dueMail(database.db, 10, late);
    if (!again) throw new Error("not due again");
    expect(await deliverOne(database.db, smtp, again, () => late)).toBe("failed");
    expect((await rowOf("test:later@example.test")).status).toBe("failed");
  });

  it("fails a mail the server refuses for good, keeping its reply", async () => {
    await queueMail(database.db, message("nobody@example.test"));
    const [due] = await dueMail(database.db, 10);
    if (!due) throw new Error("nothing due");
    expect(await deliverOne(database.db, smtp, due)).toBe("failed");
    const row = await rowOf("test:nobody@example.test");
    expect(row.status).toBe("failed");
    expect(row.lastError).toContain("550");
    expect(capture.messages).toEqual([]);
  });

  it("sends through the worker no faster than its rate, and a queued mail never waits on SMTP", async () => {
    const sent: Envelope[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A transport as slow as a stalled SMTP server: nothing the request does waits on it.
    const slow: MailTransport = {
      target: "test",
      async deliver(mail) {
        await gate;
        sent.push(mail);
      },
    };
    const worker = startMailWorker(database.db, slow, silent, {
      ratePerMinute: 3,
      intervalMs: 60_000,
      holder: "worker-test",
    });
    const mailer = createMailer(database.db, { target: "test", onQueued: () => worker.poke() });
    const started = Date.now();
    for (let i = 0; i < 5; i++)
      await mailer.send({ to: `r${i}@example.test`, subject: `n${i}`, text: "x", fromName: null });
    expect(Date.now() - started).toBeLessThan(2000);
    release();
    await expect.poll(() => sent.length, { timeout: 5000 }).toBe(3);
    await new Promise((r) => setTimeout(r, 300));
    // A minute's budget is three: the other two wait for the next minute.
    expect(sent.length).toBe(3);
    expect(await dueMail(database.db, 10)).toHaveLength(2);
    await worker.stop();
  });

  it("collects garbage as a long run goes, after each mail once the interval has passed", async () => {
    const sent: string[] = [];
    const transport: MailTransport = {
      target: "test",
      async deliver(mail) {
        sent.push(mail.to);
      },
    };
    const mailer = createMailer(database.db, { target: "test", onQueued: () => {} });
    for (let i = 0; i < 4; i++)
      await mailer.send({ to: `gc${i}@example.test`, subject: "s", text: "x", fromName: null });
    let collections = 0;
    let clock = 0;
    // Each mail takes the interval, so every mail of the run is followed by a collection.
    const worker = startMailWorker(database.db, transport, silent, {
      ratePerMinute: 1000,
      intervalMs: 60_000,
      holder: "gc-test",
      collector: () =>
        bulkCollector({
          everyMs: 10,
          now: () => (clock += 10),
          collect: () => void collections++,
        }),
    });
    await expect.poll(() => sent.length, { timeout: 5000 }).toBe(4);
    await worker.stop();
    expect(collections).toBe(4);
  });
});
