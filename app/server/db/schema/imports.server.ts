// Part of the database's one interface (`../schema.server.ts`): Post imports: each run, the items still to write, and what each source item became.
import type { ColumnType } from "kysely";
import type { Timestamp } from "./common.server.ts";

/** What an importer made from what: a second run finds its rows here (docs/decisions/020-importers.md). */
export interface ImportSourcesTable {
  /** The importer: "markdown", later "ghost", "wordpress". */
  source: string;
  /** What was made: see ImportEntity (app/server/import/import-sources.server.ts). */
  entity: string;
  /** The source's own id: a file's path in its folder, an image's SHA-256. */
  sourceId: string;
  targetId: string;
  /** The source content's hash at the last write ("" when not compared). */
  hash: ColumnType<string, string | undefined, string>;
  /** The post's version right after the import wrote it: a post edited since is left alone. */
  targetVersion: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** "staged": read and dry-run, waiting for the admin to confirm (the admin Import page). */
/** `reading`: its source is still being read and its items appended (no worker takes it yet). */
export type PostImportStatus = "reading" | "staged" | "queued" | "running" | "done" | "failed";

/** One post import run, written a chunk at a time from `processed` on. */
export interface PostImportsTable {
  id: string;
  kind: string;
  status: ColumnType<PostImportStatus, PostImportStatus | undefined, PostImportStatus>;
  /** What was imported, as the user named it (a folder, a file name). */
  label: string;
  /** Where the worker reads the source's images from. */
  rootDir: string;
  actorId: string | null;
  actorEmail: string;
  /** The user the imported posts belong to. */
  authorId: string | null;
  total: ColumnType<number, number | undefined, number>;
  processed: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  updated: ColumnType<number, number | undefined, number>;
  skipped: ColumnType<number, number | undefined, number>;
  failed: ColumnType<number, number | undefined, number>;
  imagesStored: ColumnType<number, number | undefined, number>;
  imagesMissing: ColumnType<number, number | undefined, number>;
  redirectsAdded: ColumnType<number, number | undefined, number>;
  commentsAdded: ColumnType<number, number | undefined, number>;
  /** Items written as pages (imported or updated); `imported` and `updated` count posts. */
  pages: ColumnType<number, number | undefined, number>;
  /** JSON `ImportReportLine[]`, bounded. */
  report: ColumnType<string, string | undefined, string>;
  /** A staged import's dry run (JSON `{ counts, report }`, the report bounded); null: none kept. */
  plan: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: remote images are fetched (SSRF-safe) into the media library; 0: they stay links. */
  fetchRemote: ColumnType<number, number | undefined, number>;
  failures: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  finishedAt: Timestamp | null;
}

/** An item still to write: an `ImportedPost` as JSON. */
export interface PostImportItemsTable {
  importId: string;
  seq: number;
  payload: string;
}
