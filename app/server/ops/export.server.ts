import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import * as fsp from "node:fs/promises";
import path from "node:path";
import type { OpenDatabase } from "../db/db.server.ts";
import { inSnapshot } from "./snapshot.server.ts";
import {
  afterLoad,
  assertKnownSchema,
  LOGICAL_TABLES,
  loadRows,
  nonEmptyTables,
  type Row,
  readTable,
  schemaVersion,
  type TableName,
  type TableRows,
  type TableSpec,
} from "./tables.server.ts";

/**
 * The portable export: every piece of content as one JSON document that either
 * dialect imports. Left out: sessions, verification, setup and preview-link tokens and rate-limit
 * counters (short-lived), and, unless asked for, credentials: without
 * `withPasswords` the password sign-in rows are dropped (those users set a new
 * password through "forgot password") and OAuth links keep only who they link,
 * not their tokens (the next sign-in with that provider fills them again).
 */
export const EXPORT_FORMAT = "inkwell-export";
export const EXPORT_FORMAT_VERSION = 1;

const EXPORT_TABLE_NAMES = new Set<TableName>([
  "users",
  "accounts",
  "admins",
  "siteSettings",
  "contactMessages",
  "subscribers",
  "categories",
  "tags",
  "series",
  "media",
  "posts",
  "postTranslations",
  "postTags",
  "postRevisions",
  "comments",
  "swapers",
  "links",
  "pages",
  "pageRevisions",
  "menus",
  "redirects",
  "ads",
  "auditLog",
]);

export const EXPORT_TABLES: readonly TableSpec[] = LOGICAL_TABLES.filter((t) => EXPORT_TABLE_NAMES.has(t.name));

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  exportedAt: string;
  sourceDialect: "sqlite" | "postgres";
  schemaVersion: string;
  withPasswords: boolean;
  tables: TableRows;
}

export interface ExportResult {
  file: string;
  /** The newest migration applied to the source, read in the same snapshot as the rows. */
  schemaVersion: string;
  counts: Record<string, number>;
}

function withoutCredentials(rows: Row[]): Row[] {
  return rows
    .filter((r) => r.providerId !== "credential")
    .map((r) => ({ ...r, accessToken: null, refreshToken: null, idToken: null, password: null }));
}

async function writeAtomically(file: string, produce: (write: (text: string) => Promise<void>) => Promise<void>) {
  const target = path.resolve(file);
  await fsp.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(6).toString("hex")}.partial`;
  const out = createWriteStream(temp, { flags: "wx", mode: 0o600 });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  try {
    await produce(write);
    out.end();
    await once(out, "finish");
    await fsp.rename(temp, target);
  } catch (error) {
    out.destroy();
    await fsp.rm(temp, { force: true });
    throw error;
  }
}

/** Writes the export to `file` (through a temp file: a failed export leaves none). */
export function exportContent(
  database: OpenDatabase,
  file: string,
  opts: { withPasswords?: boolean; now?: Date } = {},
): Promise<ExportResult> {
  return writeDump(database, file, { ...opts, tables: EXPORT_TABLES });
}

/**
 * Writes `tables` as an export document, all read in one snapshot. The backup of
 * a PostgreSQL database uses it too, with every table and every credential.
 */
export async function writeDump(
  database: OpenDatabase,
  file: string,
  opts: { tables: readonly TableSpec[]; withPasswords?: boolean; now?: Date },
): Promise<ExportResult> {
  const withPasswords = opts.withPasswords === true;
  const counts: Record<string, number> = {};
  let version = "";
  await writeAtomically(file, (write) =>
    inSnapshot(database, async (trx) => {
      version = await schemaVersion(trx);
      const head = {
        format: EXPORT_FORMAT,
        formatVersion: EXPORT_FORMAT_VERSION,
        exportedAt: (opts.now ?? new Date()).toISOString(),
        sourceDialect: database.dialect,
        schemaVersion: version,
        withPasswords,
      };
      // One row per line keeps the file readable and diffable.
      await write(`${JSON.stringify(head).slice(0, -1)},"tables":{`);
      let firstTable = true;
      for (const spec of opts.tables) {
        await write(`${firstTable ? "" : ","}\n${JSON.stringify(spec.name)}:[`);
        firstTable = false;
        let n = 0;
        for await (const page of readTable(trx, spec)) {
          const rows = spec.name === "accounts" && !withPasswords ? withoutCredentials(page) : page;
          for (const row of rows) {
            await write(`${n === 0 ? "" : ","}\n${JSON.stringify(row)}`);
            n += 1;
          }
        }
        await write("]");
        counts[spec.name] = n;
      }
      await write("\n}}\n");
    }),
  );
  return { file: path.resolve(file), schemaVersion: version, counts };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Checks the document's shape; throws a message naming what is wrong. */
export function parseExport(text: string, allowed: readonly TableSpec[] = EXPORT_TABLES): ExportDocument {
  const names = new Set<string>(allowed.map((t) => t.name));
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`not a JSON document: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(parsed) || parsed.format !== EXPORT_FORMAT) throw new Error("not an Inkwell export");
  if (parsed.formatVersion !== EXPORT_FORMAT_VERSION) {
    throw new Error(`export format version ${String(parsed.formatVersion)} is not supported`);
  }
  const tables = parsed.tables;
  if (!isRecord(tables)) throw new Error("the export has no tables");
  const out: TableRows = {};
  for (const [name, rows] of Object.entries(tables)) {
    if (!names.has(name)) throw new Error(`unexpected table in the export: ${name}`);
    if (!Array.isArray(rows) || !rows.every(isRecord)) throw new Error(`${name}: expected a list of rows`);
    out[name as TableName] = rows;
  }
  const version = typeof parsed.schemaVersion === "string" ? parsed.schemaVersion : "";
  assertKnownSchema(version, "the export");
  return {
    format: EXPORT_FORMAT,
    formatVersion: EXPORT_FORMAT_VERSION,
    exportedAt: String(parsed.exportedAt ?? ""),
    sourceDialect: parsed.sourceDialect === "postgres" ? "postgres" : "sqlite",
    schemaVersion: version,
    withPasswords: parsed.withPasswords === true,
    tables: out,
  };
}

export class ImportRefused extends Error {
  override name = "ImportRefused";
}

/**
 * Loads an export into a migrated database in ONE transaction: a bad row, a
 * constraint or a crash leaves the database as it was. Refuses a database that
 * already holds content unless `force` (which replaces it, in the same transaction).
 */
export async function importContent(
  database: OpenDatabase,
  doc: ExportDocument,
  opts: { force?: boolean } = {},
): Promise<Record<string, number>> {
  const { db } = database;
  // Every post has at least one translation (the editor and createPost insist; the
  // lists rely on it): an export that breaks the rule is refused before anything is written.
  const translated = new Set((doc.tables.postTranslations ?? []).map((t) => String(t.postId)));
  const bare = (doc.tables.posts ?? []).map((p) => String(p.id)).filter((id) => !translated.has(id));
  if (bare.length > 0) {
    throw new ImportRefused(
      `${bare.length} post(s) have no translation (${bare.slice(0, 3).join(", ")}); every post needs at least one`,
    );
  }
  if (!opts.force) {
    const busy = await nonEmptyTables(db, EXPORT_TABLES);
    if (busy.length > 0) {
      throw new ImportRefused(`the database is not empty: ${busy.join(", ")}; import with --force to replace it`);
    }
  }
  const counts = await db.transaction().execute((trx) => loadRows(trx, doc.tables, { replace: opts.force === true }));
  await afterLoad(database);
  return counts;
}
