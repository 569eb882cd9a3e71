import { createHash } from "node:crypto";
import { createWriteStream, existsSync } from "node:fs";
import * as fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3 } from "../../../tests/setup/s3rver.ts";
import { fillSite } from "../../../tests/setup/site-fixture.ts";
import { createServerDatabaseUrl, testDialect } from "../../../tests/setup/test-db.ts";
import { type OpenDatabase, openDatabase } from "../db/db.server.ts";
import { migrateToLatest } from "../db/migrate.server.ts";
import { parseDatabaseUrl } from "../platform/env.server.ts";
import { reindexAll } from "../search/index.server.ts";
import { createLocalStorage } from "../storage/local.server.ts";
import { createS3Storage } from "../storage/s3.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { createBackup } from "./backup.server.ts";
import { type BackupManifest, RestoreRefused, type SiteTarget } from "./backup-format.server.ts";
import { restoreBackup } from "./restore.server.ts";
import { countRows, tableDigests } from "./tables.server.ts";
import { ArchiveError, createTarWriter } from "./tar.server.ts";

const FILES: Record<string, Buffer> = {
  "m1/main.jpg": Buffer.from("main image bytes"),
  "m1/640.webp": Buffer.alloc(70_000, 7), // spans many tar blocks and gzip chunks
};

let root: string;
let source: SiteTarget;
let sourceDb: OpenDatabase;
let archive: string;
let manifest: BackupManifest;

async function storedFiles(storage: StorageDriver): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const key of storage.list()) {
    const { body } = await storage.get(key);
    const hash = createHash("sha256");
    for await (const chunk of body) hash.update(chunk as Buffer);
    out[key] = hash.digest("hex");
  }
  return out;
}

/** A fresh place to restore into: a data directory and an empty database (SQLite, or PostgreSQL). */
async function freshTarget(name: string): Promise<{ site: SiteTarget; cleanup(): Promise<void> }> {
  const dataDir = path.join(root, name);
  const database = await createServerDatabaseUrl(dataDir);
  return {
    site: {
      database: parseDatabaseUrl(database.url, dataDir),
      storage: createLocalStorage(path.join(dataDir, "uploads")),
      dataDir,
    },
    cleanup: () => database.cleanup(),
  };
}

function sqlitePlace(name: string): SiteTarget {
  const dataDir = path.join(root, name);
  return {
    database: { dialect: "sqlite", file: path.join(dataDir, "inkwell.db") },
    storage: createLocalStorage(path.join(dataDir, "uploads")),
    dataDir,
  };
}

async function withOpen<T>(site: SiteTarget, fn: (d: OpenDatabase) => Promise<T>): Promise<T> {
  const opened = openDatabase(site.database, { poolMax: 1 });
  try {
    return await fn(opened);
  } finally {
    await opened.close();
  }
}

beforeAll(async () => {
  root = await fsp.mkdtemp(path.join(os.tmpdir(), "inkwell-backup-test-"));
  const dataDir = path.join(root, "source");
  source = {
    database: { dialect: "sqlite", file: path.join(dataDir, "inkwell.db") },
    storage: createLocalStorage(path.join(dataDir, "uploads")),
    dataDir,
  };
  sourceDb = openDatabase(source.database);
  await migrateToLatest(sourceDb.db);
  await fillSite(sourceDb.db);
  await reindexAll(sourceDb.db);
  for (const [key, data] of Object.entries(FILES)) {
    await source.storage.put(key, data, { contentType: "image/jpeg", cacheControl: "public" });
  }
  await fsp.writeFile(path.join(dataDir, "auth-secret"), "s".repeat(40));
  archive = path.join(root, "site.tar.gz");
  manifest = await createBackup(source, sourceDb, archive);
});

afterAll(async () => {
  await sourceDb.close();
  await fsp.rm(root, { recursive: true, force: true });
});

describe(`backup and restore (restoring into ${testDialect()})`, () => {
  it("writes a manifest with the schema version, the counts and a checksum per entry", () => {
    expect(manifest.dialect).toBe("sqlite");
    expect(manifest.schemaVersion).toMatch(/^\d{8}T\d{6}_/);
    expect(manifest.counts.comments).toBe(2);
    expect(manifest.entries.map((e) => e.name).sort()).toEqual([
      "database/inkwell.db",
      "files/m1/640.webp",
      "files/m1/main.jpg",
      "secrets/auth-secret",
    ]);
    for (const e of manifest.entries) expect(e.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("restores into a fresh place: identical rows, search index, files and secret", async () => {
    const target = await freshTarget("fresh");
    try {
      const result = await restoreBackup(archive, target.site);
      expect(result.files).toBe(2);
      const want = await tableDigests(sourceDb.db);
      const got = await withOpen(target.site, (d) => tableDigests(d.db));
      expect(got).toEqual(want);
      expect(got.posts?.rows).toBe(1);
      // The search index is copied (SQLite) or rebuilt (PostgreSQL): both languages.
      expect(await withOpen(target.site, (d) => countRows(d.db, "postSearch"))).toBe(2);
      expect(await storedFiles(target.site.storage)).toEqual(await storedFiles(source.storage));
      expect(await fsp.readFile(path.join(target.site.dataDir, "auth-secret"), "utf8")).toBe("s".repeat(40));

      // A second restore onto the now-filled place is refused, and --force replaces it.
      await expect(restoreBackup(archive, target.site)).rejects.toThrow(RestoreRefused);
      await restoreBackup(archive, target.site, { force: true });
      expect(await withOpen(target.site, (d) => tableDigests(d.db))).toEqual(want);
    } finally {
      await target.cleanup();
    }
  });

  it("backs up the restored place again (a JSON dump on PostgreSQL) and restores that into SQLite", async () => {
    const middle = await freshTarget("middle");
    const lastSite = sqlitePlace("last");
    try {
      await restoreBackup(archive, middle.site);
      const second = path.join(root, "second.tar.gz");
      const made = await withOpen(middle.site, (d) => createBackup(middle.site, d, second));
      expect(made.database.kind).toBe(middle.site.database.dialect === "postgres" ? "json" : "sqlite");
      expect(made.counts).toEqual(manifest.counts);
      await restoreBackup(second, lastSite);
      expect(await withOpen(lastSite, (d) => tableDigests(d.db))).toEqual(await tableDigests(sourceDb.db));
      expect(await withOpen(lastSite, (d) => countRows(d.db, "postSearch"))).toBe(2);
    } finally {
      await middle.cleanup();
    }
  });

  it("restores into an S3 bucket, and backs up from one", async () => {
    const s3 = await startTestS3(["restored-media"]);
    // The database side is covered above; a SQLite file keeps this one quick.
    const target = sqlitePlace("s3");
    try {
      const site = { ...target, storage: createS3Storage(s3.config()) };
      await restoreBackup(archive, site);
      expect(await storedFiles(site.storage)).toEqual(await storedFiles(source.storage));
      expect((await site.storage.head("m1/640.webp"))?.contentType).toBe("image/webp");
      await withOpen(site, async (d) => {
        const again = await createBackup(site, d, path.join(root, "from-s3.tar.gz"));
        expect(again.entries.filter((e) => e.name.startsWith("files/"))).toEqual(
          manifest.entries.filter((e) => e.name.startsWith("files/")),
        );
      });
    } finally {
      await s3.stop();
    }
  });

  it("refuses a damaged archive and writes nothing", async () => {
    const bytes = await fsp.readFile(archive);
    const damaged = Buffer.from(bytes);
    const at = Math.floor(damaged.length / 2);
    damaged[at] = (damaged[at] ?? 0) ^ 0xff;
    const truncated = bytes.subarray(0, Math.floor(bytes.length * 0.8));
    const cases: Array<[string, Buffer]> = [
      ["flipped", damaged],
      ["truncated", truncated],
      ["not-gzip", Buffer.from("hello")],
    ];
    const target = await freshTarget("bad");
    try {
      for (const [name, content] of cases) {
        const file = path.join(root, `${name}.tar.gz`);
        await fsp.writeFile(file, content);
        await expect(restoreBackup(file, target.site), name).rejects.toThrow(ArchiveError);
        expect(await storedFiles(target.site.storage), name).toEqual({});
        if (target.site.database.dialect === "sqlite") expect(existsSync(target.site.database.file), name).toBe(false);
        else expect(await withOpen(target.site, (d) => d.db.introspection.getTables()), name).toEqual([]);
      }
    } finally {
      await target.cleanup();
    }
  });

  it("refuses archives that do not match their manifest, before writing anything", async () => {
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    /** A well-formed tar.gz of `files` (with a stand-in database) and a manifest of our choosing. */
    async function forge(name: string, files: Record<string, Buffer>, promise: (n: string, b: Buffer) => string) {
      const file = path.join(root, `${name}.tar.gz`);
      const gzip = createGzip();
      const done = pipeline(gzip, createWriteStream(file));
      const tar = createTarWriter(gzip);
      const all = { ...files, "database/inkwell.db": Buffer.from("stand-in") };
      for (const [entry, body] of Object.entries(all)) await tar.add(entry, body.length, body);
      const entries = Object.entries(all).map(([n, b]) => ({ name: n, size: b.length, sha256: promise(n, b) }));
      const text = Buffer.from(JSON.stringify({ ...manifest, entries }));
      await tar.add("manifest.json", text.length, text);
      await tar.finish();
      await done;
      return file;
    }
    const cases: Array<[string, RegExp]> = [
      [
        await forge("tampered", { "files/m1/main.jpg": Buffer.from("tampered") }, (n, b) =>
          n.endsWith(".jpg") ? "0".repeat(64) : sha(b),
        ),
        /main\.jpg does not match its checksum/,
      ],
      [await forge("bad-key", { "files/M1/Main.JPG": Buffer.from("x") }, (_n, b) => sha(b)), /bad file key/],
    ];
    for (const [file, message] of cases) {
      const target = sqlitePlace("tampered");
      await expect(restoreBackup(file, target)).rejects.toThrow(message);
      expect(await storedFiles(target.storage)).toEqual({});
      expect(existsSync(target.dataDir)).toBe(false);
    }
  });
});
