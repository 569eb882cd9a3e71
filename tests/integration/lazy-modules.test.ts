import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { seedDemoSite } from "../setup/demo-site.ts";
import { repoRoot, type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Heavy packages a reader's page never needs load on first use, not at boot (issue 24, decision
// 024 "Memory and uncached speed"). The server bundle keeps node_modules external, so one static
// import anywhere in the server loads its package at boot: this starts the production build with
// a module hook that records every package the process loads (tests/setup/record-packages.ts),
// reads the home page, a post, a tag and a search, and checks none of these was loaded, nor the
// driver of the other database dialect, nor better-auth (anonymous readers send no session
// cookie, so nothing asks it anything).

const LAZY = [
  // Fedify and its vocabulary: only when federating (federation is off here).
  "@fedify/fedify",
  "@fedify/vocab",
  "@js-temporal/polyfill",
  // pinyin-pro: only for a Chinese category, tag or series name.
  "pinyin-pro",
  // Images, remote storage, code highlighting, mail, Redis, WalletConnect.
  "sharp",
  "@aws-sdk/client-s3",
  "shiki",
  "nodemailer",
  "@redis/client",
  "@walletconnect/sign-client",
  // The wallet pages' code (/solana): their page modules load when one is first rendered.
  "@solana/kit",
  "@solana-program/system",
  "@solana-program/token",
  "@wallet-standard/app",
  // The importers' parsers and the upload parser.
  "saxes",
  "yaml",
  "smol-toml",
  "fflate",
  "busboy",
  // The Markdown pipeline: pages show stored HTML.
  "unified",
  "remark-parse",
  "remark-gfm",
  "remark-rehype",
  "rehype-sanitize",
  "rehype-stringify",
];

// better-auth and the packages only it uses: loaded by the first request that needs it (a
// session cookie of ours, /api/auth/*, the sign-in and account forms).
const AUTH = ["better-auth", "@better-auth/core", "@better-auth/utils", "better-call", "jose", "@better-fetch/fetch"];

describe(`packages loaded for reading (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let record: string;
  let dataDir: string;
  const pages: Record<string, string> = { home: "/", search: "/search?q=sourdough" };

  const loaded = () => readFileSync(record, "utf8").split("\n").filter(Boolean);

  beforeAll(async () => {
    dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    const { postPath, tagPath } = await seedDemoSite(dataDir, database.url, 14);
    pages.post = postPath;
    pages.tag = tagPath;
    record = path.join(dataDir, "packages.txt");
    writeFileSync(record, "");
    server = await startServer(
      {
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        LOG_REQUESTS: "false",
        FEDERATION: "off",
        RECORD_PACKAGES: record,
      },
      { nodeArgs: ["--import", path.join(repoRoot, "tests", "setup", "record-packages.ts")] },
    );
    // Seeding (migrations first) and starting the server take over 30 s on PostgreSQL on a busy machine.
  }, 90_000);

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  it("records what the server loads (the hook works)", () => {
    const names = loaded();
    for (const name of ["express", "react-dom", "kysely"]) expect(names).toContain(name);
  });

  it("loads none of the heavy packages at boot or for the reading pages", async () => {
    for (const [name, pagePath] of Object.entries(pages)) {
      const res = await fetch(`${server.url}${pagePath}`);
      await res.arrayBuffer();
      expect(res.status, name).toBe(200);
    }
    // Each dialect's driver loads only for its own database.
    const lazy = [...LAZY, ...AUTH, testDialect() === "sqlite" ? "pg" : "better-sqlite3"];
    expect(loaded().filter((name) => lazy.includes(name))).toEqual([]);
  });

  it("loads a lazy package when a page first needs it", async () => {
    // The about page renders the site's Markdown on read: the pipeline loads now.
    const about = await fetch(`${server.url}/about`);
    await about.arrayBuffer();
    expect(about.status).toBe(200);
    expect(loaded()).toContain("unified");
    // A wallet page is rendered by the server in full, its code imported on this first visit.
    const wallet = await fetch(`${server.url}/solana/closeToken`);
    const html = await wallet.text();
    expect(wallet.status).toBe(200);
    expect(html).toContain("Connect a wallet to use this tool.");
    expect(loaded()).toContain("@solana/kit");
    expect(loaded()).not.toContain("@fedify/fedify");
  });

  it("loads better-auth for the first request with a session cookie, and signing in works", async () => {
    // A session cookie (here one no session matches) makes the server ask better-auth.
    const page = await fetch(`${server.url}/`, { headers: { cookie: "inkwell.session_token=unknown" } });
    await page.arrayBuffer();
    expect(page.status).toBe(200);
    for (const name of AUTH) expect(loaded()).toContain(name);

    // Registering, verifying and signing in go through it; the session it sets is read back.
    const email = "lazy-auth@example.com";
    const password = "correct horse battery";
    const form = (fields: Record<string, string>, cookie = "") => ({
      method: "POST",
      redirect: "manual" as const,
      headers: {
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
        ...(cookie ? { cookie } : {}),
      },
      body: new URLSearchParams(fields).toString(),
    });
    const registered = await fetch(`${server.url}/register`, form({ name: "Lazy Reader", email, password }));
    await registered.arrayBuffer();
    expect(registered.status).toBe(200);
    const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
    try {
      const verified = await db.updateTable("users").set({ emailVerified: 1 }).where("email", "=", email).execute();
      expect(verified.map((r) => Number(r.numUpdatedRows))).toEqual([1]);
    } finally {
      await close();
    }
    const login = await fetch(`${server.url}/login`, form({ email, password }));
    await login.arrayBuffer();
    expect(login.status).toBe(302);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith("inkwell.session_token="));
    expect(cookie).toBeDefined();
    const account = await fetch(`${server.url}/account`, { headers: { cookie: cookie ?? "" }, redirect: "manual" });
    expect(account.status).toBe(200);
    expect(await account.text()).toContain(email);
    // Its own endpoints answer too.
    const ok = await fetch(`${server.url}/api/auth/ok`);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ ok: true });
  });
});
