import { request as httpRequest } from "node:http";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type MailCapture, startMailCapture, waitForMail } from "../setup/mail-capture.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Faults (issue #10): a crash in the middle of writes loses nothing acknowledged,
// and a SIGTERM under load lets every request in flight finish.

/** One contact message: a public write whose 200 means "stored". */
async function writeMessage(server: ServerProcess, text: string): Promise<"acked" | number | "failed"> {
  try {
    const res = await fetch(`${server.url}/contact`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: server.url,
      },
      body: new URLSearchParams({ name: "Loop", email: "loop@example.test", message: text, website: "" }).toString(),
    });
    await res.arrayBuffer();
    return res.status === 200 ? "acked" : res.status;
  } catch {
    return "failed";
  }
}

describe(`faults (${testDialect()})`, () => {
  it("keeps every acknowledged write through a kill -9, and the database stays intact", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const env = { DATA_DIR: dataDir, DATABASE_URL: database.url, RATE_LIMIT_MULTIPLIER: "1000" };
    let server = await startServer(env);
    const acked: string[] = [];
    const refused: number[] = [];
    try {
      let n = 0;
      let killed = false;
      // Four writers at once; the server dies under them after 40 acknowledgements.
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (;;) {
            const text = `acknowledged write ${n++}`;
            const outcome = await writeMessage(server, text);
            if (outcome === "acked") acked.push(text);
            if (typeof outcome === "number") refused.push(outcome);
            if (outcome === "failed") return;
            if (acked.length >= 40 && !killed) {
              killed = true;
              server.proc.kill("SIGKILL");
            }
          }
        }),
      );
      await server.exited;
      expect(refused).toEqual([]);
      expect(acked.length).toBeGreaterThanOrEqual(40);

      server = await startServer(env);
      const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
      try {
        if (database.dialect === "sqlite") {
          const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db);
          expect(check.rows.map((r) => r.integrity_check)).toEqual(["ok"]);
        }
        const stored = new Set(
          (await db.selectFrom("contactMessages").select("message").execute()).map((r) => r.message),
        );
        for (const text of acked) expect(stored.has(text), text).toBe(true);
      } finally {
        await close();
      }
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop("SIGKILL");
      await database.cleanup();
    }
  });

  it("finishes the requests in flight on SIGTERM under load, then exits 0 within 10 s", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      RENDER_CACHE: "false",
      RATE_LIMIT_MULTIPLIER: "1000",
    });
    try {
      // Readers in a loop: they keep the server busy until it stops listening.
      let stopping = false;
      const readers = Array.from({ length: 8 }, async () => {
        let ok = 0;
        while (!stopping) {
          const res = await fetch(`${server.url}/posts`).catch(() => null);
          if (res?.status === 200) ok++;
          await res?.arrayBuffer().catch(() => {});
        }
        return ok;
      });
      // Writers caught mid-request: the server has their headers (it answered
      // "100 Continue", so each request is being handled), not yet their bodies.
      const bodies = Array.from({ length: 8 }, (_, i) =>
        new URLSearchParams({
          name: "Slow",
          email: "slow@example.test",
          message: `in flight ${i}`,
          website: "",
        }).toString(),
      );
      const writers = bodies.map((body) => {
        const req = httpRequest(`${server.url}/contact`, {
          method: "POST",
          agent: false,
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": String(Buffer.byteLength(body)),
            origin: server.url,
            expect: "100-continue",
          },
        });
        const accepted = new Promise<void>((resolve) => req.once("continue", () => resolve()));
        // The status once the response is complete (-1: the request itself failed).
        const answered = new Promise<number>((resolve) => {
          req.on("response", (res) => {
            const status = res.statusCode ?? 0;
            res.on("end", () => resolve(status));
            res.on("error", () => resolve(status));
            res.resume();
          });
          req.on("error", () => resolve(-1));
        });
        req.flushHeaders();
        return { req, body, accepted, answered };
      });
      await Promise.all(writers.map((w) => w.accepted));
      const stopped = server.stop("SIGTERM");
      await new Promise((r) => setTimeout(r, 200));
      for (const w of writers) w.req.end(w.body);
      expect(await Promise.all(writers.map((w) => w.answered))).toEqual(bodies.map(() => 200));
      stopping = true;
      const served = await Promise.all(readers);
      const { code, ms } = await stopped;
      expect(served.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(10_000);
      const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
      try {
        const stored = (await db.selectFrom("contactMessages").select("message").execute()).map((r) => r.message);
        for (let i = 0; i < bodies.length; i++) expect(stored).toContain(`in flight ${i}`);
      } finally {
        await close();
      }
    } finally {
      await server.stop("SIGKILL");
      await database.cleanup();
    }
  });
});

describe(`mail server down (${testDialect()})`, () => {
  it("still answers a sign-up, and the verification mail can be asked for again once SMTP is back", async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    const smtpPort = await freePort();
    const server = await startServer({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      RATE_LIMIT_MULTIPLIER: "1000",
    });
    let mail: MailCapture | null = null;
    const email = "no-mail-yet@example.test";
    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams(fields).toString(),
      });
    try {
      // Nothing listens on the SMTP port: the account is still created, with a clear answer.
      const register = await post("/register", { name: "Fault Reader", email, password: "correct horse battery" });
      expect(register.status).toBe(200);
      await register.arrayBuffer();
      const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
      try {
        const user = await db.selectFrom("users").select("emailVerified").where("email", "=", email).executeTakeFirst();
        expect(Number(user?.emailVerified)).toBe(0);
      } finally {
        await close();
      }
      expect(server.proc.exitCode).toBeNull();

      // SMTP comes back; signing in unverified (403: verify first) sends the mail again.
      mail = await startMailCapture({ smtpPort });
      const login = await post("/login", { email, password: "correct horse battery" });
      expect(login.status).toBe(403);
      await login.arrayBuffer();
      const sent = await waitForMail(mail.apiUrl, email, /./);
      expect(sent.text).toContain("/verify-email?token=");
    } finally {
      await server.stop("SIGKILL");
      await mail?.close();
      await database.cleanup();
    }
  });
});
