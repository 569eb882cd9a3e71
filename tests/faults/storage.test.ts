import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { jpeg } from "../fixtures/images.ts";
import { startTestS3, type TestS3 } from "../setup/s3rver.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { startRelay, type TcpRelay } from "../setup/tcp-relay.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";
import { filesUnder, postForm, signedInAccount, uploadFile } from "../setup/uploads.ts";

// Storage faults against the production server: a full disk and an S3-compatible
// storage that goes away. Each must give a clear answer, leave no row and no
// partial file, and let the upload succeed once storage is back.

const mediaRows = (db: DB) => db.selectFrom("media").select("id").execute();

interface Site {
  server: ServerProcess;
  db: DB;
  dataDir: string;
  stop(): Promise<void>;
}

/** A production server on a fresh data directory and database, with its own handle on the database. */
async function startSite(env: Record<string, string>, entry?: string): Promise<Site> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  const server = await startServer(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      LOG_LEVEL: "fatal",
      ...env,
    },
    entry ? { entry } : {},
  );
  const db = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 }).db;
  return {
    server,
    db,
    dataDir,
    async stop() {
      await server.stop("SIGKILL");
      await db.destroy();
      await database.cleanup();
    },
  };
}

describe(`uploads on a full disk (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let db: DB;

  beforeAll(async () => {
    site = await startSite({}, "tests/setup/storage-fault-server.ts");
    ({ server, db } = site);
  });

  afterAll(async () => {
    await site?.stop();
  });

  it("answers 507 and leaves no partial file and no row", async () => {
    const { cookie } = await signedInAccount(server.url, db, "full", { admin: true });
    const res = await uploadFile(server.url, { fileName: "photo.jpg", data: await jpeg(800, 600) }, { cookie });
    expect(res.status).toBe(507);
    expect(await res.json()).toMatchObject({ code: "quota-exceeded" });
    expect(await mediaRows(db)).toEqual([]);
    expect(filesUnder(path.join(site.dataDir, "uploads"))).toEqual([]);
  });
});

describe(`uploads while S3 is unreachable (${testDialect()})`, () => {
  let s3: TestS3;
  let relay: TcpRelay;
  let site: Site;
  let server: ServerProcess;
  let db: DB;

  beforeAll(async () => {
    s3 = await startTestS3(["inkwell-media"]);
    const endpoint = new URL(s3.endpoint);
    relay = await startRelay({ host: endpoint.hostname, port: Number(endpoint.port) });
    site = await startSite({
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${relay.port()}`,
      S3_BUCKET: "inkwell-media",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      // The spec's 10 minutes, shortened so the test sees the end of the retries.
      STORAGE_RETRY_SECONDS: "2",
      STORAGE_UPLOAD_RETRY_SECONDS: "3",
      SMTP_URL: "smtp://127.0.0.1:1",
    });
    ({ server, db } = site);
  });

  afterAll(async () => {
    await site?.stop();
    await relay?.close();
    await s3?.stop();
  });

  it("answers 503 with Retry-After after retrying, stores nothing, and the same upload works once S3 is back", async () => {
    const { cookie } = await signedInAccount(server.url, db, "s3-down", { admin: true });
    const file = { fileName: "later.jpg", data: await jpeg(640, 480) };

    await relay.cut();
    const started = Date.now();
    const refused = await uploadFile(server.url, file, { cookie });
    const waited = Date.now() - started;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.json()).toMatchObject({ code: "retry-limit-exceeded" });
    // It retried for the configured deadline rather than failing at the first refusal.
    expect(waited).toBeGreaterThanOrEqual(2_500);
    expect(await mediaRows(db)).toEqual([]);
    expect(await s3.allKeys("inkwell-media")).toEqual([]);

    // The rest of the site still answers: pages, and a sign-up.
    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    await home.arrayBuffer();
    const signUp = await postForm(server.url, "/register", {
      name: "S3 Reader",
      email: "while-s3-down@example.test",
      password: "correct horse battery",
    });
    expect(signUp.status).toBe(200);
    await signUp.arrayBuffer();

    await relay.restore();
    const stored = await uploadFile(server.url, file, { cookie });
    expect(stored.status).toBe(201);
    const { media } = (await stored.json()) as { media: { id: string } };
    expect((await mediaRows(db)).map((r) => r.id)).toEqual([media.id]);
    expect(await s3.allKeys("inkwell-media")).toContain(`${media.id}/image.jpg`);
  });
});
