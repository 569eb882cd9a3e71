// `npm run cli -- restore <file>`: checks a backup (backup-format.server.ts) and restores it into an empty site.
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import * as fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { openDatabase, sqliteDriver } from "../db/db.server.ts";
import { migrateToLatest } from "../db/migrate.server.ts";
import { isSafeKey } from "../storage/keys.server.ts";
import { contentTypeForKey, LOCAL_CACHE_CONTROL } from "../storage/local.server.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  type BackupManifest,
  DUMP_ENTRY,
  FILE_PREFIX,
  MANIFEST,
  MAX_MANIFEST_BYTES,
  MAX_SECRET_BYTES,
  RestoreRefused,
  SECRET_ENTRY,
  type SiteTarget,
  SQLITE_ENTRY,
  tempDir,
} from "./backup-format.server.ts";
import { parseExport } from "./export.server.ts";
import {
  afterLoad,
  assertKnownSchema,
  countRows,
  LOGICAL_TABLES,
  loadRows,
  nonEmptyTables,
  readAllRows,
  type TableRows,
} from "./tables.server.ts";
import { ArchiveError, readTar, type TarSink } from "./tar.server.ts";

/** Reads the archive's tar stream; read errors and gzip damage surface as ArchiveError. */
async function walkArchive(file: string, onEntry: Parameters<typeof readTar>[1]): Promise<void> {
  const gunzip = createGunzip();
  const source = createReadStream(file);
  source.on("error", (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  try {
    await readTar(gunzip, onEntry);
  } catch (error) {
    if (error instanceof ArchiveError || error instanceof RestoreRefused) throw error;
    const code = error instanceof Error && "code" in error ? String(error.code) : "";
    if (code === "ENOENT") throw new ArchiveError(`no such file: ${file}`);
    if (code.startsWith("Z_") || code === "ERR_ZLIB") {
      throw new ArchiveError(`damaged archive: ${error instanceof Error ? error.message : String(error)}`);
    }
    throw error;
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ArchiveError("damaged archive: manifest.json is not JSON");
  }
  if (!isRecord(value) || value.format !== BACKUP_FORMAT) throw new ArchiveError("not an Inkwell backup");
  if (value.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new ArchiveError(`backup format version ${String(value.formatVersion)} is not supported`);
  }
  const database = value.database;
  if (
    !isRecord(database) ||
    (database.kind !== "sqlite" && database.kind !== "json") ||
    typeof database.entry !== "string" ||
    !Array.isArray(value.entries) ||
    !value.entries.every(
      (e) => isRecord(e) && typeof e.name === "string" && typeof e.size === "number" && typeof e.sha256 === "string",
    )
  ) {
    throw new ArchiveError("damaged archive: manifest.json is incomplete");
  }
  return value as unknown as BackupManifest;
}

/**
 * Reads the whole archive once and checks it against its manifest: every entry
 * listed, present once, with the right size and SHA-256, and nothing unlisted.
 * Writes nothing. Throws ArchiveError naming the first problem.
 */
export async function verifyBackup(file: string): Promise<BackupManifest> {
  const seen = new Map<string, { size: number; sha256: string }>();
  let manifestText: string | null = null;
  await walkArchive(file, (entry): TarSink => {
    if (seen.has(entry.name) || (entry.name === MANIFEST && manifestText !== null)) {
      throw new ArchiveError(`damaged archive: ${entry.name} appears twice`);
    }
    if (entry.name === MANIFEST) {
      if (entry.size > MAX_MANIFEST_BYTES) throw new ArchiveError("damaged archive: manifest.json is too large");
      const parts: Buffer[] = [];
      return {
        write: (chunk) => {
          parts.push(chunk);
        },
        end: () => {
          manifestText = Buffer.concat(parts).toString("utf8");
        },
      };
    }
    const hash = createHash("sha256");
    let size = 0;
    return {
      write: (chunk) => {
        hash.update(chunk);
        size += chunk.length;
      },
      end: () => {
        seen.set(entry.name, { size, sha256: hash.digest("hex") });
      },
    };
  });
  if (manifestText === null) throw new ArchiveError("damaged archive: it has no manifest.json");
  const manifest = parseManifest(manifestText);
  const listed = new Set<string>();
  for (const e of manifest.entries) {
    const got = seen.get(e.name);
    if (!got) throw new ArchiveError(`damaged archive: ${e.name} is missing`);
    if (got.size !== e.size || got.sha256 !== e.sha256) {
      throw new ArchiveError(`damaged archive: ${e.name} does not match its checksum`);
    }
    listed.add(e.name);
  }
  for (const name of seen.keys()) {
    if (!listed.has(name)) throw new ArchiveError(`damaged archive: ${name} is not in the manifest`);
  }
  if (!listed.has(manifest.database.entry)) throw new ArchiveError("damaged archive: the database is missing");
  const dbEntry = manifest.database.kind === "sqlite" ? SQLITE_ENTRY : DUMP_ENTRY;
  if (manifest.database.entry !== dbEntry) throw new ArchiveError("damaged archive: the database entry is misnamed");
  for (const e of manifest.entries) {
    if (e.name.startsWith(FILE_PREFIX)) {
      // Checked now, so the restore cannot stop half-way on a key the store refuses.
      if (!isSafeKey(e.name.slice(FILE_PREFIX.length)))
        throw new ArchiveError(`damaged archive: bad file key ${e.name}`);
      continue;
    }
    if (e.name !== SQLITE_ENTRY && e.name !== DUMP_ENTRY && e.name !== SECRET_ENTRY) {
      throw new ArchiveError(`damaged archive: unexpected entry ${e.name}`);
    }
  }
  try {
    assertKnownSchema(manifest.schemaVersion, "the backup");
  } catch (error) {
    throw new ArchiveError(error instanceof Error ? error.message : String(error));
  }
  return manifest;
}

/** What stands in the way of a restore: rows in the database, files in the store. */
export async function occupiedBy(site: SiteTarget): Promise<string[]> {
  const found: string[] = [];
  if (site.database.dialect === "sqlite") {
    if (existsSync(site.database.file)) {
      const opened = openDatabase(site.database);
      try {
        const busy = await nonEmptyTables(opened.db, LOGICAL_TABLES).catch(() => ["a database file of unknown shape"]);
        if (busy.length > 0) found.push(`database ${site.database.file}: ${busy.join(", ")}`);
      } finally {
        await opened.close();
      }
    }
  } else {
    const opened = openDatabase(site.database, { poolMax: 1 });
    try {
      const tables = new Set((await opened.db.introspection.getTables()).map((t) => t.name));
      const present = LOGICAL_TABLES.filter((t) => tables.has(t.name));
      const busy = await nonEmptyTables(opened.db, present);
      if (busy.length > 0) found.push(`database: ${busy.join(", ")}`);
    } finally {
      await opened.close();
    }
  }
  for await (const key of site.storage.list()) {
    found.push(`stored files (${key}, …)`);
    break;
  }
  return found;
}

export interface RestoreResult {
  manifest: BackupManifest;
  files: number;
  counts: Record<string, number>;
}

async function readSqliteRows(file: string): Promise<TableRows> {
  const opened = openDatabase({ dialect: "sqlite", file });
  try {
    await migrateToLatest(opened.db);
    const rows: TableRows = {};
    for (const t of LOGICAL_TABLES) rows[t.name] = await readAllRows(opened.db, t);
    return rows;
  } finally {
    await opened.close();
  }
}

async function removeSqliteFiles(file: string): Promise<void> {
  for (const suffix of ["", "-wal", "-shm", "-journal"]) await fsp.rm(`${file}${suffix}`, { force: true });
}

/**
 * Restores a backup into `site`. Checks the whole archive first (nothing is
 * written when any entry is damaged), then refuses a site that holds rows or files
 * unless `force`. Files go in first, the database last and whole: a SQLite file is
 * built beside its final place and renamed over it; PostgreSQL loads in one
 * transaction. Stop the server before restoring.
 */
export async function restoreBackup(
  file: string,
  site: SiteTarget,
  opts: { force?: boolean } = {},
): Promise<RestoreResult> {
  const manifest = await verifyBackup(file);
  if (!opts.force) {
    const busy = await occupiedBy(site);
    if (busy.length > 0) {
      throw new RestoreRefused(`the target is not empty: ${busy.join("; ")}; restore with --force to replace it`);
    }
  }
  const expected = new Map(manifest.entries.map((e) => [e.name, e]));
  const stageNear = site.database.dialect === "sqlite" ? path.dirname(site.database.file) : os.tmpdir();
  const work = await tempDir(stageNear);
  const stagedDb = path.join(work, manifest.database.kind === "sqlite" ? "inkwell.db" : "dump.json");
  let secret: Buffer | null = null;
  let files = 0;
  try {
    await walkArchive(file, async (entry): Promise<TarSink> => {
      const want = expected.get(entry.name);
      const hash = createHash("sha256");
      const check = () => {
        if (!want || hash.digest("hex") !== want.sha256) {
          throw new ArchiveError(`${entry.name} changed since it was checked; nothing more was restored`);
        }
      };
      if (entry.name === manifest.database.entry) {
        const out = createWriteStream(stagedDb, { flags: "wx", mode: 0o600 });
        return {
          write: async (chunk) => {
            hash.update(chunk);
            if (!out.write(chunk)) await once(out, "drain");
          },
          end: async () => {
            out.end();
            await once(out, "finish");
            check();
          },
        };
      }
      const parts: Buffer[] = [];
      const collect = (chunk: Buffer) => {
        hash.update(chunk);
        parts.push(chunk);
      };
      if (entry.name === SECRET_ENTRY) {
        if (entry.size > MAX_SECRET_BYTES) throw new ArchiveError("damaged archive: the secret is too large");
        return {
          write: collect,
          end: () => {
            check();
            secret = Buffer.concat(parts);
          },
        };
      }
      if (entry.name.startsWith(FILE_PREFIX)) {
        const key = entry.name.slice(FILE_PREFIX.length);
        return {
          write: collect,
          end: async () => {
            check();
            await site.storage.put(key, Buffer.concat(parts), {
              contentType: want?.contentType ?? contentTypeForKey(key),
              cacheControl: want?.cacheControl ?? LOCAL_CACHE_CONTROL,
            });
            files += 1;
          },
        };
      }
      // The manifest: already read and checked.
      return { write: () => undefined, end: () => undefined };
    });

    const counts = await restoreDatabase(manifest, stagedDb, site, opts.force === true, work);
    const secretBytes: Buffer | null = secret;
    if (secretBytes) {
      await fsp.mkdir(site.dataDir, { recursive: true });
      const secretFile = path.join(site.dataDir, "auth-secret");
      await fsp.writeFile(`${secretFile}.tmp`, secretBytes, { mode: 0o600 });
      await fsp.rename(`${secretFile}.tmp`, secretFile);
    }
    return { manifest, files, counts };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

async function restoreDatabase(
  manifest: BackupManifest,
  staged: string,
  site: SiteTarget,
  force: boolean,
  work: string,
): Promise<Record<string, number>> {
  const rowsFromArchive = async (): Promise<TableRows> =>
    manifest.database.kind === "sqlite"
      ? readSqliteRows(staged)
      : parseExport(await fsp.readFile(staged, "utf8"), LOGICAL_TABLES).tables;

  if (site.database.dialect === "sqlite") {
    const finalFile = site.database.file;
    let built = staged;
    if (manifest.database.kind === "json") {
      // Build a fresh SQLite file from the dump, beside its final place.
      built = path.join(work, "restored.db");
      const rows = await rowsFromArchive();
      const fresh = openDatabase({ dialect: "sqlite", file: built });
      try {
        await migrateToLatest(fresh.db);
        await fresh.db.transaction().execute((trx) => loadRows(trx, rows, { replace: false }));
        await afterLoad(fresh);
      } finally {
        await fresh.close();
      }
    }
    const opened = openDatabase({ dialect: "sqlite", file: built });
    const counts: Record<string, number> = {};
    try {
      await migrateToLatest(opened.db);
      for (const t of LOGICAL_TABLES) counts[t.name] = await countRows(opened.db, t.name);
    } finally {
      await opened.close();
    }
    const SQLite = sqliteDriver();
    const check = new SQLite(built);
    try {
      const result = check.pragma("integrity_check", { simple: true });
      if (result !== "ok")
        throw new ArchiveError(`the restored database failed its integrity check: ${String(result)}`);
      check.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      check.close();
    }
    await fsp.mkdir(path.dirname(finalFile), { recursive: true });
    await removeSqliteFiles(finalFile);
    await fsp.rename(built, finalFile);
    await removeSqliteFiles(built);
    return counts;
  }

  const rows = await rowsFromArchive();
  const target = openDatabase(site.database, { poolMax: 2 });
  try {
    await migrateToLatest(target.db);
    const counts = await target.db.transaction().execute((trx) => loadRows(trx, rows, { replace: force }));
    await afterLoad(target);
    return counts;
  } finally {
    await target.close();
  }
}
