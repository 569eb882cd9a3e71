// `npm run cli -- backup <file>` and BACKUP_CRON: writes a backup in the format of backup-format.server.ts.
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import * as fsp from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { type OpenDatabase, openDatabase, sqliteDriver } from "../db/db.server.ts";
import { isSafeKey } from "../storage/keys.server.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  DUMP_ENTRY,
  FILE_PREFIX,
  MANIFEST,
  type ManifestEntry,
  SECRET_ENTRY,
  type SiteTarget,
  SQLITE_ENTRY,
  tempDir,
} from "./backup-format.server.ts";
import { writeDump } from "./export.server.ts";
import { countRows, LOGICAL_TABLES, schemaVersion } from "./tables.server.ts";
import { createTarWriter } from "./tar.server.ts";

/** A consistent copy of a live SQLite database through a second connection (SQLite's online backup API). */
async function snapshotSqlite(file: string, dest: string): Promise<void> {
  if (file === ":memory:") throw new Error("an in-memory database cannot be backed up");
  const SQLite = sqliteDriver();
  const source = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    await source.backup(dest);
  } finally {
    source.close();
  }
}

/**
 * Writes a backup of the site to `file` (through a temp file beside it: a failed
 * backup leaves no archive behind). `database` is the open connection of the same
 * site (row counts, and the snapshot on PostgreSQL).
 */
export async function createBackup(
  site: SiteTarget,
  database: OpenDatabase,
  file: string,
  opts: { now?: Date } = {},
): Promise<BackupManifest> {
  const target = path.resolve(file);
  const work = await tempDir(path.dirname(target));
  const partial = path.join(work, "archive.tar.gz");
  try {
    // 1. The database, first.
    let dbEntry: { name: string; kind: "sqlite" | "json"; file: string };
    let version: string;
    const counts: Record<string, number> = {};
    if (site.database.dialect === "sqlite") {
      const copy = path.join(work, "inkwell.db");
      await snapshotSqlite(site.database.file, copy);
      // Closing the last connection checkpoints its WAL: the copy is one whole file again.
      const opened = openDatabase({ dialect: "sqlite", file: copy });
      try {
        version = await schemaVersion(opened.db);
        for (const t of LOGICAL_TABLES) counts[t.name] = await countRows(opened.db, t.name);
      } finally {
        await opened.close();
      }
      dbEntry = { name: SQLITE_ENTRY, kind: "sqlite", file: copy };
    } else {
      const dump = path.join(work, "dump.json");
      const result = await writeDump(database, dump, { tables: LOGICAL_TABLES, withPasswords: true, now: opts.now });
      Object.assign(counts, result.counts);
      version = result.schemaVersion;
      dbEntry = { name: DUMP_ENTRY, kind: "json", file: dump };
    }

    // 2. The archive: files, database, secret, manifest.
    const gzip = createGzip({ level: 6 });
    const out = createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const done = pipeline(gzip, out);
    done.catch(() => undefined); // awaited below; keep an early failure from going unhandled
    const tar = createTarWriter(gzip, (opts.now ?? new Date()).getTime());
    const entries: ManifestEntry[] = [];
    try {
      for await (const key of site.storage.list()) {
        // A bucket may hold objects someone else put there: only our own keys are ours to copy.
        if (!isSafeKey(key)) continue;
        const object = await site.storage.get(key);
        const name = `${FILE_PREFIX}${key}`;
        try {
          const sha256 = await tar.add(name, object.size, object.body);
          entries.push({
            name,
            size: object.size,
            sha256,
            contentType: object.contentType,
            cacheControl: object.cacheControl,
          });
        } finally {
          object.body.destroy();
        }
      }
      const dbSize = (await fsp.stat(dbEntry.file)).size;
      entries.push({
        name: dbEntry.name,
        size: dbSize,
        sha256: await tar.add(dbEntry.name, dbSize, createReadStream(dbEntry.file)),
      });
      const secretFile = path.join(site.dataDir, "auth-secret");
      if (existsSync(secretFile)) {
        const secret = await fsp.readFile(secretFile);
        entries.push({
          name: SECRET_ENTRY,
          size: secret.length,
          sha256: await tar.add(SECRET_ENTRY, secret.length, secret),
        });
      }
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        formatVersion: BACKUP_FORMAT_VERSION,
        createdAt: (opts.now ?? new Date()).toISOString(),
        dialect: site.database.dialect,
        schemaVersion: version,
        storageDriver: site.storage.kind,
        database: { entry: dbEntry.name, kind: dbEntry.kind },
        counts,
        entries,
      };
      const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      await tar.add(MANIFEST, body.length, body);
      await tar.finish();
      await done;
      await fsp.rename(partial, target);
      return manifest;
    } catch (error) {
      gzip.destroy();
      await done.catch(() => undefined);
      throw error;
    }
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
