import { createHash } from "node:crypto";
import { lstat, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { Definition, Image, Root } from "mdast";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { storeUpload, UploadRejected } from "../media/media.server.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { isRemoteReference } from "./core.server.ts";
import { rememberTarget, storedImageUrl } from "./import-sources.server.ts";

// Images an imported post refers to. A local file of the source goes through the normal upload
// pipeline (checked, re-encoded, variants, metadata stripped) once per distinct content: its
// SHA-256 is recorded in importSources, so a second run, or the same picture in two posts,
// reuses the stored image. Remote images stay links; missing files are reported.

export type ResolvedImage =
  | { kind: "remote" }
  | { kind: "file"; file: string; rel: string }
  | { kind: "missing"; rel: string; reason: "notFound" | "outside" | "tooLarge" };

export interface ImageResolver {
  resolve(ref: string, assetDirs: readonly string[]): Promise<ResolvedImage>;
}

/** Where a reference found in a file of `root` points: inside `root` only, never through a link out of it. */
export function localImageResolver(root: string, maxBytes: number): ImageResolver {
  // Resolved on first use, never before: a folder gone since the import was queued is "missing" images, not a crash.
  let realRoot: Promise<string | null> | null = null;
  return {
    async resolve(ref, assetDirs) {
      if (isRemoteReference(ref)) return { kind: "remote" };
      realRoot ??= realpath(root).catch(() => null);
      let clean = ref.split(/[?#]/)[0] ?? "";
      try {
        clean = decodeURIComponent(clean);
      } catch {
        // Keep it as written.
      }
      const base = await realRoot;
      if (!base) return { kind: "missing", rel: clean, reason: "notFound" };
      const candidates = clean.startsWith("/")
        ? ["", "static", "source", "public"].map((d) => path.join(base, d, clean))
        : assetDirs.map((d) => path.join(base, d, clean));
      let outside = false;
      for (const file of candidates) {
        const rel = path.relative(base, file);
        if (rel.startsWith("..") || path.isAbsolute(rel)) {
          outside = true;
          continue;
        }
        const info = await lstat(file).catch(() => null);
        if (!info?.isFile()) continue;
        // A link inside the folder may still lead out of it.
        const real = await realpath(file).catch(() => null);
        if (!real || path.relative(base, real).startsWith("..")) {
          outside = true;
          continue;
        }
        if (info.size > maxBytes) return { kind: "missing", rel: clean, reason: "tooLarge" };
        return { kind: "file", file: real, rel: rel.split(path.sep).join("/") };
      }
      return { kind: "missing", rel: clean, reason: outside ? "outside" : "notFound" };
    },
  };
}

/** The Markdown parser, made with the first body that may hold an image (unified and remark load then). */
const parserModule = lazyModule(async () => {
  const [{ unified }, { default: remarkParse }, { default: remarkGfm }] = await Promise.all([
    import("unified"),
    import("remark-parse"),
    import("remark-gfm"),
  ]);
  return unified().use(remarkParse).use(remarkGfm);
});

interface Reference {
  url: string;
  start: number;
  end: number;
}

/** Every image and link-definition target of a Markdown body, with where its node is in the text. */
export async function imageReferences(markdown: string): Promise<Reference[]> {
  // An image needs "![" and a definition "]:" (a label, then its colon): without either there is
  // nothing to find, and parsing the whole body to learn that was a tenth of a large import.
  if (!markdown.includes("![") && !markdown.includes("]:")) return [];
  const tree = (await parserModule()).parse(markdown) as Root;
  const out: Reference[] = [];
  const visit = (node: { type: string; children?: unknown[] }) => {
    if (node.type === "image" || node.type === "definition") {
      const n = node as Image | Definition;
      const start = n.position?.start.offset;
      const end = n.position?.end.offset;
      if (n.url && start !== undefined && end !== undefined) out.push({ url: n.url, start, end });
    }
    for (const child of node.children ?? []) visit(child as { type: string; children?: unknown[] });
  };
  visit(tree);
  return out;
}

/** The body with each reference's target replaced where `replace` gives a new one. */
export function rewriteReferences(
  markdown: string,
  refs: readonly Reference[],
  replace: (url: string) => string | null,
): string {
  let out = markdown;
  for (const ref of [...refs].sort((a, b) => b.start - a.start)) {
    const next = replace(ref.url);
    if (!next) continue;
    const slice = out.slice(ref.start, ref.end);
    const at = slice.lastIndexOf(ref.url);
    if (at < 0) continue;
    const wrapped = /\s/.test(next) ? `<${next}>` : next;
    out =
      out.slice(0, ref.start) + slice.slice(0, at) + wrapped + slice.slice(at + ref.url.length) + out.slice(ref.end);
  }
  return out;
}

export interface ImageStore {
  db: DB;
  storage: StorageDriver;
  source: string;
  uploadedBy: string | null;
}

export type StoredImage = { ok: true; url: string; stored: boolean } | { ok: false; reason: string };

/**
 * The site address of a source file's image: the one stored before for the same bytes, or a new
 * upload through the media pipeline. The mapping row is written right after the upload; a kill
 * between the two leaves one unreferenced media row, never a broken post.
 */
export async function storeImportedImage(store: ImageStore, file: string): Promise<StoredImage> {
  return storeImportedBytes(store, await readFile(file), path.basename(file));
}

/** The same for bytes already read (a fetched remote image), named `fileName`. */
export async function storeImportedBytes(store: ImageStore, data: Buffer, fileName: string): Promise<StoredImage> {
  const sha = createHash("sha256").update(data).digest("hex");
  const known = await storedImageUrl(store.db, store.source, "media", sha);
  if (known) return { ok: true, url: known, stored: false };
  let record: Awaited<ReturnType<typeof storeUpload>>;
  try {
    record = await storeUpload(
      { db: store.db, storage: store.storage },
      {
        fileName,
        data,
        uploadedBy: store.uploadedBy,
        customMetadata: { importedFrom: store.source },
      },
    );
  } catch (error) {
    if (error instanceof UploadRejected) return { ok: false, reason: error.failure.code };
    throw error;
  }
  await rememberTarget(store.db, {
    source: store.source,
    entity: "media",
    sourceId: sha,
    targetId: record.id,
    now: nowIso(),
  });
  return { ok: true, url: record.url, stored: true };
}
