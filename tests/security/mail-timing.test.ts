import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../app/server/db/db.server.ts";
import type { ServerProcess } from "../setup/server-process.ts";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";

// Hardening round 2 (issue 19), finding 9: forgot-password waited on SMTP only when the
// account existed, so its timing told who has an account. Mail now goes through the
// outbox: with an SMTP server that never answers, both answers come at once and the
// mail waits in the outbox.

const PASSWORD = "correct horse battery staple";

describe(`mail never holds up an answer (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let db: DB;
  let stalled: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    // Accepts the connection and never says a word: an SMTP server under strain.
    stalled = createServer((socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => stalled.listen(0, "127.0.0.1", () => resolve()));
    const port = (stalled.address() as { port: number }).port;
    site = await startSite({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    ({ server, db } = site);
    const signUp = await site.authApi("sign-up/email", {
      email: "known@example.test",
      password: PASSWORD,
      name: "Known",
    });
    expect(signUp.status).toBe(200);
  });

  afterAll(async () => {
    await site?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => stalled?.close(() => resolve()));
  });

  it("answers forgot-password for a known and an unknown address alike, the mail left queued", async () => {
    const ask = (email: string) =>
      fetch(`${server.url}/forgot-password`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ email }).toString(),
        redirect: "manual",
        // Far below the SMTP client's own timeouts: an answer that waited on SMTP never comes in time.
        signal: AbortSignal.timeout(8000),
      });
    const known = await ask("known@example.test");
    const unknown = await ask("unknown@example.test");
    expect(known.status).toBe(unknown.status);
    // The same page, but for the address it names and the nonce each response has of its own.
    const page = async (res: Response) =>
      (await res.text()).replaceAll(/nonce="[^"]*"/g, "nonce").replaceAll(/(?:un)?known@example\.test/g, "ADDRESS");
    expect(await page(known)).toBe(await page(unknown));
    const queued = await db
      .selectFrom("mailOutbox")
      .select(["recipient", "status", "kind"])
      .where("recipient", "=", "known@example.test")
      .execute();
    // The sign-up's verification and the reset link, both waiting for SMTP.
    expect(queued.filter((m) => m.status === "queued").length).toBeGreaterThanOrEqual(2);
    expect(queued.every((m) => m.kind === "auth")).toBe(true);
    expect(
      await db.selectFrom("mailOutbox").select("id").where("recipient", "=", "unknown@example.test").execute(),
    ).toEqual([]);
  });
});
