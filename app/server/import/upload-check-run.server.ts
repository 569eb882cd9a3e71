import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Locale } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { type CheckedPost, checkPost } from "./check.server.ts";
import type { ImportedPost, ImportReportLine } from "./core.server.ts";
import { GHOST_SOURCE, streamGhostExport } from "./ghost.server.ts";
import { MARKDOWN_SOURCE, SourceRefused, SourceTooDeep, streamMarkdownFolder } from "./markdown-folder.server.ts";
import { streamWxr, WORDPRESS_SOURCE } from "./wordpress.server.ts";
import { unpackZip, ZipRefused } from "./zip.server.ts";

// The reading half of an upload's check (upload-check.server.ts): unpacks a zip within its
// budgets, or streams a Ghost or WordPress export, and hands each batch of posts on already
// checked (checkPost) and serialised, so the thread that receives them only stores them and
// looks things up. Run on the check's worker thread; in-process in tests.

export interface UploadCheckRequest {
  /** The uploaded file, saved under `importsDir`. */
  file: string;
  format: "zip" | "json" | "xml";
  importsDir: string;
  locale: Locale | undefined;
  /** A Markdown zip's folder of pages (the page's field; empty: none). */
  pagesFolder?: string | undefined;
  /** A zip's budgets (zip.server.ts). */
  entryMaxBytes: number;
  totalMaxBytes: number;
}

/** Why an upload is refused after it was received (the page shows each in the admin's language). */
export type UploadRefusal =
  | "notZip"
  | "notGhost"
  | "notWordPress"
  | "zipTooLarge"
  | "zipRatio"
  | "zipTooManyFiles"
  | "tooDeep"
  | "tooComplex";

export type UploadCheckEvent =
  /** Where the upload's files are: the folder imported, and the folder to remove when it is dropped. */
  | { type: "source"; kind: string; rootDir: string; unpacked: string }
  | { type: "posts"; items: Array<{ check: CheckedPost; payload: string }> }
  | { type: "done"; problems: ImportReportLine[] }
  | { type: "refused"; refusal: UploadRefusal; detail: string }
  /** Something no input should cause (a bug in a reader): logged, and the file refused as unreadable. */
  | { type: "failed"; message: string };

/** The refusal a reader's error stands for. */
function refusalOf(format: UploadCheckRequest["format"], error: SourceRefused): UploadRefusal {
  if (error instanceof ZipRefused)
    return error.reason === "size" ? "zipTooLarge" : error.reason === "ratio" ? "zipRatio" : "zipTooManyFiles";
  if (error instanceof SourceTooDeep) return "tooDeep";
  return format === "json" ? "notGhost" : format === "xml" ? "notWordPress" : "notZip";
}

/** Whether `error` is V8 running out of stack: input nested past what a recursive step follows. */
const isStackOverflow = (error: unknown): boolean => error instanceof RangeError && /call stack/i.test(error.message);

/**
 * Reads the upload `request.file`, telling `emit` where its files are, each batch of posts, and
 * the end (or why it is refused). `emit` is awaited: reading waits while a batch is stored.
 */
export async function runUploadCheck(
  request: UploadCheckRequest,
  emit: (event: UploadCheckEvent) => Promise<void>,
): Promise<void> {
  const onPosts = async (posts: ImportedPost[]) => {
    const items = [];
    for (const post of posts) items.push({ check: await checkPost(post), payload: JSON.stringify(post) });
    await emit({ type: "posts", items });
  };
  const opts = { locale: request.locale };
  try {
    if (request.format === "zip") {
      const zip = await unpackZip(request.file, request.importsDir, {
        entryMaxBytes: request.entryMaxBytes,
        totalMaxBytes: request.totalMaxBytes,
      });
      await emit({ type: "source", kind: MARKDOWN_SOURCE, rootDir: zip.root, unpacked: zip.dir });
      const read = await streamMarkdownFolder(zip.root, { pagesFolder: request.pagesFolder }, onPosts);
      await emit({ type: "done", problems: [...zip.problems, ...read.problems] });
      return;
    }
    // Images are not uploaded with an export: an empty folder of its own, removed on cancel.
    const kind = request.format === "json" ? GHOST_SOURCE : WORDPRESS_SOURCE;
    const rootDir = path.join(request.importsDir, `${kind}-${newId()}`);
    await mkdir(rootDir, { recursive: true });
    await emit({ type: "source", kind, rootDir, unpacked: rootDir });
    const read =
      request.format === "json"
        ? await streamGhostExport(request.file, opts, onPosts)
        : await streamWxr(request.file, opts, onPosts);
    await emit({ type: "done", problems: read.problems });
  } catch (error) {
    if (error instanceof SourceRefused) {
      await emit({ type: "refused", refusal: refusalOf(request.format, error), detail: error.message.slice(0, 300) });
      return;
    }
    if (isStackOverflow(error)) {
      await emit({ type: "refused", refusal: "tooDeep", detail: "nested too deeply to read" });
      return;
    }
    throw error;
  }
}
