import { randomUUID } from "node:crypto";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, type FederationBlog, startFederationBlog } from "../setup/federation-blog.ts";
import { testDialect } from "../setup/test-db.ts";

// Hardening round 3 (issue 45), findings 3 and 4: the Fediverse inbox before a signature is
// checked. A 48 KB activity nested 8,000 levels deep overflowed the stack in JSON-LD work and
// answered 500 with an error-level trace; and the rate limit was keyed on the host named in
// the unverified keyId, so a made-up host per request was never limited and each added a row.

/** A remote server's own budget here: small, so the test reaches it. */
const PER_SERVER = 3;
/** Unverified POSTs one client address may send a minute. */
const PER_ADDRESS = 10;
/** Unverified POSTs the inbox takes a minute from everyone together. */
const TOTAL = 60;

interface Answer {
  status: number;
  body: string;
}

/** A POST from a loopback address of our choosing (the blog sees it as the client's address). */
function postFrom(
  from: string,
  url: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = typeof body === "string" ? Buffer.from(body) : body;
    const req = httpRequest(
      url,
      {
        method: "POST",
        localAddress: from,
        agent: false,
        headers: {
          "content-type": "application/activity+json",
          "content-length": String(payload.length),
          date: new Date().toUTCString(),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** A draft-cavage Signature header naming `keyId`, with a signature that verifies nothing. */
const forgedSignature = (keyId: string) =>
  `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date",signature="${Buffer.from("forged").toString("base64")}"`;

/** `{"a":{"a":…}}` nested `depth` levels, inside an activity with a Linked Data signature (JSON-LD work first). */
function deepActivity(depth: number, actor: string): string {
  const nested = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  return (
    `{"@context":"https://www.w3.org/ns/activitystreams","id":"${actor}#deep","type":"Create","actor":"${actor}",` +
    `"object":${nested},"signature":{"type":"RsaSignature2017","creator":"${actor}#main-key",` +
    `"created":"2024-01-01T00:00:00Z","signatureValue":"eA=="}}`
  );
}

interface LogLine {
  level: number;
  msg?: string;
}

describe(`the inbox before the signature is checked (${testDialect()})`, () => {
  let blog: FederationBlog;
  let inbox: string;

  beforeAll(async () => {
    blog = await startFederationBlog({
      LOG_LEVEL: "info",
      FEDERATION_INBOX_PER_MINUTE: String(PER_SERVER),
      FEDERATION_INBOX_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
      FEDERATION_INBOX_TOTAL_PER_MINUTE: String(TOTAL),
    });
    inbox = `${blog.base}/ap/inbox`;
  });

  afterAll(async () => {
    await blog?.close();
  });

  /** The server's log lines since `from` (a length of its output). */
  const logSince = (from: number): LogLine[] =>
    blog.server
      .output()
      .slice(from)
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as LogLine);

  const inboxRows = () => blog.db.selectFrom("rateLimits").select("key").where("key", "like", "fedinbox:%").execute();

  it("refuses an activity nested 8,000 levels deep with 400 and an info line, before any JSON-LD work", async () => {
    const actor = blog.peer.actorUri("alice").href;
    const deep = deepActivity(8000, actor);
    expect(deep.length).toBeGreaterThan(40_000);
    const from = blog.server.output().length;
    const answers: Answer[] = [];
    answers.push(await postFrom("127.0.0.2", inbox, deep));
    answers.push(await postFrom("127.0.0.2", `${blog.base}/ap/actors/zh/inbox`, deep));
    // Signed with a key that names a real server: still refused before the signature is looked at.
    answers.push(await postFrom("127.0.0.2", inbox, deep, { signature: forgedSignature(`${actor}#main-key`) }));
    // An array nesting (no object keys to walk) and a body that is not JSON at all.
    answers.push(await postFrom("127.0.0.2", inbox, `${"[".repeat(8000)}${"]".repeat(8000)}`));
    answers.push(await postFrom("127.0.0.2", inbox, '{"type":"Follow",'));
    expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400, 400]);
    // The log reaches the test's pipe after the answers: wait for the five lines.
    const refused = await eventually(async () => {
      const lines = logSince(from).filter((l) => l.level === 30 && /activity refused/.test(l.msg ?? ""));
      return lines.length >= 5 ? lines : null;
    }, "the refusals' log lines");
    expect(refused).toHaveLength(5);
    expect(logSince(from).filter((l) => l.level >= 50)).toEqual([]);
    // The server is still well.
    expect((await fetch(`${blog.base}/healthz`)).status).toBe(200);
  });

  it("takes a nesting that real activities have to the signature check", async () => {
    const actor = blog.peer.actorUri("alice").href;
    const res = await postFrom("127.0.0.2", inbox, deepActivity(12, actor));
    // Unsigned: refused by the signature check, not by the depth limit.
    expect(res.status).toBe(401);
  });

  it("limits unverified posts per client address, whatever host each one's keyId names, without a row per host", async () => {
    const rowsBefore = (await inboxRows()).length;
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 5; i++) {
      const keyId = `https://made-up-${randomUUID()}.example/users/x#main-key`;
      const res = await postFrom("127.0.0.3", inbox, JSON.stringify({ type: "Follow" }), {
        signature: forgedSignature(keyId),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, PER_ADDRESS).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(PER_ADDRESS)).toEqual([429, 429, 429, 429, 429]);
    // At most the address's own counter is new: the made-up hosts left nothing behind.
    expect((await inboxRows()).length - rowsBefore).toBeLessThanOrEqual(1);
  });

  it("counts a remote server's budget only for activities whose signature it verified", async () => {
    const alice = blog.peer.actorUri("alice");
    // Forgeries naming the peer's key, from elsewhere: they spend nothing of the peer's budget.
    for (let i = 0; i < PER_ADDRESS - 2; i++) {
      const res = await postFrom(
        "127.0.0.4",
        inbox,
        JSON.stringify({ type: "Like", actor: alice.href, id: `${alice.href}#forged-${i}` }),
        {
          signature: forgedSignature(`${alice.href}#main-key`),
        },
      );
      expect([400, 401]).toContain(res.status);
    }
    const like = (n: number) =>
      JSON.stringify({
        "@context": "https://www.w3.org/ns/activitystreams",
        id: `${alice.href}#likes/${randomUUID()}`,
        type: "Like",
        actor: alice.href,
        object: `${blog.base}/ap/articles/zh/no-such-post-${n}`,
      });
    const statuses: number[] = [];
    for (let i = 0; i < PER_SERVER + 1; i++) {
      const res = await blog.peer.postSigned(inbox, like(i), "draft-cavage-http-signatures-12");
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses.slice(0, PER_SERVER).every((s) => s >= 200 && s < 300)).toBe(true);
    expect(statuses[PER_SERVER]).toBe(429);
  });

  it("stops taking unverified posts past the inbox's overall budget, from any address", async () => {
    let refusedAt: string | null = null;
    // Each address stays under its own limit; together they spend the whole budget.
    for (let host = 10; host < 40 && refusedAt === null; host++) {
      for (let i = 0; i < PER_ADDRESS - 1; i++) {
        const res = await postFrom(`127.0.0.${host}`, inbox, JSON.stringify({ type: "Follow" }));
        if (res.status === 429) {
          refusedAt = `127.0.0.${host}`;
          break;
        }
        expect([400, 401]).toContain(res.status);
      }
    }
    expect(refusedAt).not.toBeNull();
    // A fresh address is refused too: the budget is the inbox's, not the address's.
    expect((await postFrom("127.0.0.99", inbox, JSON.stringify({ type: "Follow" }))).status).toBe(429);
  });
});
