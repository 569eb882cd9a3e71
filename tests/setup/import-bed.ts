import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import type { DB } from "../../app/server/db/db.server.ts";
import type { Database } from "../../app/server/db/schema.server.ts";
import { serveRedirects } from "../../app/server/http/redirects.server.ts";
import { queuePostImport, unfinishedImportOf } from "../../app/server/import/job/queue.server.ts";
import { importNextPostChunk } from "../../app/server/import/job/runner.server.ts";
import type { PostImportDeps } from "../../app/server/import/job/types.server.ts";
import { importDeps } from "../../app/server/import/job/worker.server.ts";
import type { SourceRead } from "../../app/server/import/markdown-folder.server.ts";
import { createRedirectMap } from "../../app/server/redirects/map.server.ts";
import { createLocalStorage } from "../../app/server/storage/local.server.ts";
import { insertUser } from "./fixtures-db.ts";
import { createTestDatabase, type TestDatabase } from "./test-db.ts";

// What the importers' repository tests (Markdown folder, Ghost, WordPress) stand on: a migrated
// test database (both dialects), the admin who imports, a temporary source folder and a store
// folder, and a run of an import's chunks until none is left.

export interface ImportBed {
  database: TestDatabase;
  /** The source folder (empty: the test puts its files there). */
  root: string;
  /** Where imported images are stored. */
  storeDir: string;
  /** The admin who runs the imports and owns the posts. */
  author: { id: string; email: string };
  /** The worker's dependencies over the bed's store, with `maxBytes` per image (10 MiB unless said). */
  deps(maxBytes?: number): PostImportDeps;
  /**
   * Queues `read` as an import of `kind` from the bed's folder or `rootDir` (or resumes the
   * unfinished one with `resume`), runs it to the end (see drain) and returns its id.
   */
  runImport(
    source: {
      kind: string;
      label: string;
      read: SourceRead;
      rootDir?: string;
      fetchRemote?: boolean;
      resume?: boolean;
    },
    opts?: DrainOptions,
  ): Promise<string>;
  /** Runs chunks of `chunk` posts (the default size unless said) until none is left or `maxChunks` (50) ran. */
  drain(opts?: DrainOptions): Promise<void>;
  /** The rows in a table. */
  count(table: keyof Database): Promise<number>;
  /** Drops the database and both folders. */
  cleanup(): Promise<void>;
}

export interface DrainOptions {
  chunk?: number;
  maxChunks?: number;
  deps?: PostImportDeps;
}

/** A bed with folders named after `name` and the importing admin `author`. */
export async function createImportBed(name: string, author: { email: string; name?: string }): Promise<ImportBed> {
  const database = await createTestDatabase();
  const root = await mkdtemp(path.join(tmpdir(), `inkwell-${name}-`));
  const storeDir = await mkdtemp(path.join(tmpdir(), `inkwell-${name}-store-`));
  const importer = { id: await insertUser(database.db, author), email: author.email };
  const deps = (maxBytes = 10 * 1024 * 1024) => importDeps(database.db, createLocalStorage(storeDir), maxBytes);
  const drain = async (opts: DrainOptions = {}) => {
    const chunkDeps = opts.deps ?? deps();
    for (let i = 0; i < (opts.maxChunks ?? 50); i++) {
      if ((await importNextPostChunk(chunkDeps, opts.chunk ? { chunk: opts.chunk } : {})) === "idle") return;
    }
  };
  return {
    database,
    root,
    storeDir,
    author: importer,
    deps,
    drain,
    async runImport({ kind, label, read, rootDir = root, fetchRemote, resume }, opts) {
      const id =
        (resume ? await unfinishedImportOf(database.db, kind, rootDir) : null) ??
        (await queuePostImport(database.db, {
          kind,
          label,
          rootDir,
          actor: importer,
          authorId: importer.id,
          read,
          ...(fetchRemote === undefined ? {} : { fetchRemote }),
        }));
      await drain(opts);
      return id;
    },
    async count(table) {
      const { n } = await database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .executeTakeFirstOrThrow();
      return Number(n);
    },
    async cleanup() {
      await database.cleanup();
      await rm(root, { recursive: true, force: true });
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/**
 * Serves the redirects table (as the site does, a 404 for anything else) on a loopback port
 * while `use` runs with the server's base URL, then stops it.
 */
export async function withRedirectServer(db: DB, use: (base: string) => Promise<void>): Promise<void> {
  const map = createRedirectMap(db, { intervalMs: 60_000 });
  const app = express();
  app.use(serveRedirects(map));
  app.use((_req, res) => {
    res.status(404).end();
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  try {
    await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    await new Promise((r) => server.close(r));
    await map.stop();
  }
}
