import type { Selectable } from "kysely";
import type { Logger } from "pino";
import type { DB } from "../../db/db.server.ts";
import type { Database, Locale } from "../../db/schema.server.ts";
import type { IndexedText } from "../../search/indexed-text.server.ts";
import type { StorageDriver } from "../../storage/types.server.ts";
import type { ImportedComment, ImportedPost, ImportReportLine } from "../core.server.ts";
import type { ImageResolver } from "../images.server.ts";
import type { RemoteFetchOptions } from "../remote-fetch.server.ts";
import type { ImportRenderer } from "../render-pool.server.ts";

// What the import job's parts hand each other (job/ and write/, see ../README.md): what the
// job needs from the server, the import's row, a post ready to be written, and what a chunk
// looked up once.

export interface PostImportDeps {
  db: DB;
  storage: StorageDriver;
  log?: Logger;
  /** How each kind of import finds its images, given the import's root folder. */
  images: (kind: string, rootDir: string) => ImageResolver;
  /** Fetching remote images for imports that ask for it (the size limit is the upload limit). */
  remote: Omit<RemoteFetchOptions, "maxBytes"> & { maxBytes: number };
  /** Renders the posts' bodies: the server and the CLI pass a worker; absent, on this thread. */
  renderer?: ImportRenderer;
}

/** An unfinished import's row, as the job reads it (state.server.ts, nextImport). */
export type ImportJob = Selectable<Database["postImports"]>;

/** A post with its images stored and its bodies and comments rendered: what the writers take. */
export interface Prepared {
  post: ImportedPost;
  hash: string;
  translations: Array<{
    locale: Locale;
    title: string;
    summary: string;
    bodyMarkdown: string;
    bodyHtml: string;
    tocJson: string;
    readingMinutes: number;
  }>;
  /** Each translation's search index text (segmented before the chunk's transaction). */
  index: IndexedText[];
  coverUrl: string | null;
  /** The post's comments, rendered (the comment form's path). */
  comments: Array<ImportedComment & { bodyHtml: string }>;
  lines: ImportReportLine[];
  imagesStored: number;
  imagesMissing: number;
}

export type Preparation =
  | { ok: true; prepared: Prepared }
  | { ok: false; line: ImportReportLine; lines: ImportReportLine[] };

/**
 * What a chunk looked up once and may reuse for its next posts, inside its one transaction
 * (nothing else writes these rows meanwhile; the next chunk starts afresh): the account each
 * source author maps to, and that account's handle for the author page's redirects.
 */
export interface ChunkLookups {
  authors: Map<string, string>;
  handles: Map<string, string | null>;
}
