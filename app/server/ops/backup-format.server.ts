import * as fsp from "node:fs/promises";
import path from "node:path";
import type { DatabaseConfig } from "../platform/env.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";

/**
 * `npm run cli -- backup <file>` and `restore <file>`. A backup is one .tar.gz:
 *
 *   files/<key>             every object in the store (local disk or S3), as the driver lists it
 *   database/inkwell.db     SQLite: an online-backup copy (never a copy of the live file)
 *   database/dump.json      PostgreSQL: every table, read in one REPEATABLE READ snapshot
 *   secrets/auth-secret     the generated session secret, when DATA_DIR holds one
 *   manifest.json           last: format, time, dialect, schema version, row counts,
 *                           and the size and SHA-256 of every other entry
 *
 * The database is copied before the files are listed: a media row in the copy has
 * its files already stored (uploads store files before the row), so the restored
 * site misses none. A file uploaded in between is extra, and `media gc` finds it.
 */
export const BACKUP_FORMAT = "inkwell-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST = "manifest.json";
export const SQLITE_ENTRY = "database/inkwell.db";
export const DUMP_ENTRY = "database/dump.json";
export const SECRET_ENTRY = "secrets/auth-secret";
export const FILE_PREFIX = "files/";
export const MAX_MANIFEST_BYTES = 256 * 1024 * 1024;
export const MAX_SECRET_BYTES = 4096;

export interface ManifestEntry {
  name: string;
  size: number;
  sha256: string;
  /** Objects in the store: what they are served as. */
  contentType?: string;
  cacheControl?: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  dialect: "sqlite" | "postgres";
  schemaVersion: string;
  storageDriver: "local" | "s3";
  database: { entry: string; kind: "sqlite" | "json" };
  counts: Record<string, number>;
  entries: ManifestEntry[];
}

/** Where a backup comes from, or a restore goes to. */
export interface SiteTarget {
  database: DatabaseConfig;
  storage: StorageDriver;
  dataDir: string;
}

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export async function tempDir(near: string): Promise<string> {
  await fsp.mkdir(near, { recursive: true });
  return fsp.mkdtemp(path.join(near, ".inkwell-backup-"));
}
