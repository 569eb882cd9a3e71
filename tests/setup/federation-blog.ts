import { expect } from "vitest";
import { type DB, nowIso, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type FediversePeer, startFediversePeer } from "./fediverse-peer.ts";
import { freePort, type ServerProcess, startServer, tempDataDir } from "./server-process.ts";
import { createServerDatabaseUrl } from "./test-db.ts";

// The blog as the federation integration tests run it: the production server with the test
// seam that allows http loopback peers (federation-server.ts), FEDERATION on, a quick
// scheduler, a database of its own that the test reads and writes too, and a Fedify peer
// (fediverse-peer.ts) to follow it and talk to it.

export interface FederationBlog {
  /** `http://127.0.0.1:{port}` */
  base: string;
  /** `127.0.0.1:{port}`: the host in the accounts' handles. */
  host: string;
  /** The server's database (a small pool of the test's own). */
  db: DB;
  peer: FediversePeer;
  /** The running server; `restart` replaces it. */
  server: ServerProcess;
  /** Starts the server again with the same environment (after the test stopped it). */
  restart(): Promise<ServerProcess>;
  /** Stops the peer and the server, then closes and drops the database. */
  close(): Promise<void>;
}

/** Starts the blog (`env` adds to or overrides its environment) and the peer. */
export async function startFederationBlog(env: Record<string, string> = {}): Promise<FederationBlog> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  let server: ServerProcess | undefined;
  let opened: ReturnType<typeof openDatabase> | undefined;
  let peer: FediversePeer | undefined;
  const close = async () => {
    await peer?.close();
    await server?.stop("SIGKILL");
    await opened?.close();
    await database.cleanup();
  };
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serverEnv = {
      PORT: String(port),
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_REQUESTS: "false",
      FEDERATION: "on",
      SCHEDULER_INTERVAL_MS: "300",
      ...env,
    };
    const start = () => startServer(serverEnv, { entry: "tests/setup/federation-server.ts" });
    server = await start();
    opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
    peer = await startFediversePeer();
    const blog: FederationBlog = {
      base,
      host: `127.0.0.1:${port}`,
      db: opened.db,
      peer,
      server,
      async restart() {
        server = await start();
        blog.server = server;
        return server;
      },
      close,
    };
    return blog;
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Waits until `probe` gives something other than null or undefined (the blog handles
 * activities and deliveries from its queue), checking every 100 ms.
 */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined>,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Lets the blog's queue handle what was sent (for activities that must change nothing). */
export const settle = () => new Promise((r) => setTimeout(r, 1500));

/** The page of the post `id` in `locale`, as a reader gets it (answered 200). */
export async function postPage(base: string, locale: "en" | "zh", id: string): Promise<string> {
  const res = await fetch(`${base}/${locale}/posts/detail/${id}`);
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * Writes a post straight into the blog's database (the server's scheduler then federates it):
 * published now unless said, its Chinese version titled `zhTitle`, and with `en` an English one
 * (`English {id}`, its body linking home).
 */
export async function insertFederatedPost(
  db: DB,
  id: string,
  opts: {
    zhTitle: string;
    en?: boolean;
    status?: "published" | "scheduled" | "draft";
    publishedAt?: string;
    federate?: boolean;
    cover?: { url: string; alt: string };
  },
): Promise<void> {
  // All at once: the blog's scheduler (every 300 ms) must never see the post without its versions.
  if (!db.isTransaction) return db.transaction().execute((trx) => insertFederatedPost(trx, id, opts));
  const at = nowIso();
  await db
    .insertInto("posts")
    .values({
      id,
      slug: id,
      authorId: null,
      status: opts.status ?? "published",
      publishedAt: opts.publishedAt ?? at,
      categoryId: null,
      coverImageId: null,
      coverImageUrl: opts.cover?.url ?? null,
      coverAlt: opts.cover?.alt ?? "",
      federate: opts.federate === false ? 0 : 1,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  const version = (locale: "zh" | "en", title: string, summary: string, body: string, bodyHtml: string) => ({
    postId: id,
    locale,
    title,
    summary,
    bodyMarkdown: body,
    bodyHtml,
    seoTitle: null,
    seoDescription: null,
    createdAt: at,
    updatedAt: at,
  });
  await db
    .insertInto("postTranslations")
    .values([
      version("zh", opts.zhTitle, "摘要", "正文", "<p>正文</p>"),
      ...(opts.en ? [version("en", `English ${id}`, "Summary", "Body", '<p>Body <a href="/en">home</a></p>')] : []),
    ])
    .execute();
}

/**
 * A post in both languages (`中文标题 {id}` and `English {id}`) with a tag of its own (`t-{id}`,
 * Open Web / 开放网络), written in one transaction: the blog's scheduler (every 300 ms) must
 * never federate the post before its tag is there (it did once on PostgreSQL in CI).
 */
export async function insertTaggedPost(
  db: DB,
  id: string,
  opts: { status: "published" | "scheduled" | "draft"; publishedAt: string },
): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((trx) => insertTaggedPost(trx, id, opts));
  await insertFederatedPost(db, id, { ...opts, zhTitle: `中文标题 ${id}`, en: true });
  const at = nowIso();
  await db
    .insertInto("tags")
    .values({
      id: `t-${id}`,
      slug: `tag-${id}`,
      nameEn: "Open Web",
      nameZh: "开放网络",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  await db
    .insertInto("postTags")
    .values({ postId: id, tagId: `t-${id}` })
    .execute();
}
