import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { dbRateLimitStore, LIMITS } from "../http/rate-limit.server.ts";
import type { MailMessage } from "../mail/message.server.ts";
import { confirmSubscription, findSubscriberByEmail } from "./subscribers.server.ts";
import { type SubscribeDeps, subscribe } from "./subscriptions.server.ts";

let database: TestDatabase;
let sent: MailMessage[];

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.cleanup();
});

function deps(clientIp: string): SubscribeDeps {
  sent = [];
  return {
    db: database.db,
    mailer: { target: "test", send: async (m) => void sent.push(m) },
    log: pino({ level: "silent" }),
    publicUrl: "https://blog.example",
    rateLimitMultiplier: 1,
    clientIp,
    rateLimits: dbRateLimitStore(database.db),
  };
}

const tokenOf = (text: string, path: string) => {
  const m = new RegExp(`https://blog\\.example/(en|zh)${path}\\?token=([\\w-]+)`).exec(text);
  if (!m?.[2]) throw new Error(`no ${path} link in ${text}`);
  return { locale: m[1], token: m[2] };
};

describe("subscribe", () => {
  it("mails a confirmation in the reader's language with an unsubscribe link", async () => {
    const d = deps("10.0.0.1");
    expect(await subscribe(d, "Zh@Example.test", "zh")).toEqual({ ok: true });
    expect(sent).toHaveLength(1);
    const [mail] = sent;
    expect(mail?.to).toBe("zh@example.test");
    expect(mail?.subject).toBe("确认订阅 墨水博客");
    expect(tokenOf(mail?.text ?? "", "/unsubscribe").locale).toBe("zh");
    const { token } = tokenOf(mail?.text ?? "", "/subscribe/confirm");
    expect((await confirmSubscription(database.db, token)).kind).toBe("done");
  });

  it("re-sends while pending only within the per-address mail limit, with the same answer", async () => {
    const d = deps("10.0.0.2");
    const max = LIMITS.subscribeMailPerEmail.max;
    for (let i = 0; i < max + 2; i++) expect(await subscribe(d, "again@example.test", "en")).toEqual({ ok: true });
    expect(sent).toHaveLength(max);
    // Requests over the limit keep the last mailed links working.
    const last = sent.at(-1)?.text ?? "";
    expect((await confirmSubscription(database.db, tokenOf(last, "/subscribe/confirm").token)).kind).toBe("done");
  });

  it("answers a confirmed address the same way without mailing it", async () => {
    const d = deps("10.0.0.3");
    await subscribe(d, "done@example.test", "en");
    await confirmSubscription(database.db, tokenOf(sent[0]?.text ?? "", "/subscribe/confirm").token);
    expect(await subscribe(d, "done@example.test", "en")).toEqual({ ok: true });
    expect(sent).toHaveLength(1);
    expect((await findSubscriberByEmail(database.db, "done@example.test"))?.status).toBe("confirmed");
  });

  it("refuses a client address over its limit before touching the table", async () => {
    const d = deps("10.0.0.4");
    for (let i = 0; i < LIMITS.subscribePerIp.max; i++) {
      expect((await subscribe(d, `ip-${i}@example.test`, "en")).ok).toBe(true);
    }
    const over = await subscribe(d, "one-more@example.test", "en");
    expect(over.ok).toBe(false);
    expect(!over.ok && over.retryAfter).toBeGreaterThan(0);
    expect(await findSubscriberByEmail(database.db, "one-more@example.test")).toBeNull();
  });
});
