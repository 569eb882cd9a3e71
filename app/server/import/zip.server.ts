import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { UnzipFile } from "fflate";
import { lazyModule } from "../lazy-module.server.ts";
import type { ImportReportLine } from "./core.server.ts";
import { SourceRefused } from "./markdown-folder.server.ts";

// A zip of a blog folder, unpacked for an import (docs/decisions/020-importers.md). It is
// streamed, never held whole: each entry is cut off past `entryMaxBytes` (so the size checks
// after it report it, and a zip bomb stops inflating there), the whole is capped, and entry
// names that would leave the folder are refused and listed.

/** The zip reader, loaded with the first zip unpacked (boot only prunes old folders). */
const fflateModule = lazyModule(() => import("fflate"));

/** The most entries one zip may have. */
export const ZIP_MAX_ENTRIES = 50_000;
/** The most bytes one zip may unpack to, all entries together. */
export const ZIP_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/** Written once an unpacking finished: a folder without it is unpacked again. */
const COMPLETE = ".inkwell-unpacked";

/** The entry's path inside the folder, or null when it could lead out of it or is not a plain path. */
export function safeEntryPath(name: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (name.includes("\\") || /[\u0000-\u001f]/.test(name) || name.startsWith("/") || /^[a-z]:/i.test(name)) return null;
  const parts = name.split("/");
  if (parts[parts.length - 1] === "") parts.pop();
  if (parts.length === 0 || parts.some((p) => p === "" || p === "." || p === "..")) return null;
  return parts.join("/");
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

interface Pending {
  rel: string;
  chunks: Uint8Array[];
  size: number;
  done: boolean;
  error: string | null;
}

/** The folder to import: the zip's single top folder when everything is inside one. */
async function contentRoot(dest: string): Promise<string> {
  const entries = (await readdir(dest, { withFileTypes: true })).filter((e) => !e.name.startsWith("."));
  const [only] = entries;
  return entries.length === 1 && only?.isDirectory() ? path.join(dest, only.name) : dest;
}

/**
 * Unpacks `zipFile` under `workDir` (in a folder named by the zip's SHA-256, so the same zip
 * again finds its folder and an unfinished import of it) and returns the folder to import.
 */
export async function unpackZip(
  zipFile: string,
  workDir: string,
  limits: { entryMaxBytes: number; totalMaxBytes?: number; maxEntries?: number },
): Promise<{ dir: string; root: string; problems: ImportReportLine[] }> {
  const info = await stat(zipFile).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${zipFile}`);
  const dir = path.join(workDir, `zip-${(await sha256Of(zipFile)).slice(0, 24)}`);
  const problems: ImportReportLine[] = [];
  if (await stat(path.join(dir, COMPLETE)).catch(() => null)) return { dir, root: await contentRoot(dir), problems };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const totalMax = limits.totalMaxBytes ?? ZIP_MAX_TOTAL_BYTES;
  const maxEntries = limits.maxEntries ?? ZIP_MAX_ENTRIES;
  let entries = 0;
  let total = 0;
  let refused: string | null = null;
  const pending: Pending[] = [];
  const { Unzip, UnzipInflate } = await fflateModule();
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file: UnzipFile) => {
    if (file.name.endsWith("/") || file.name.startsWith("__MACOSX/")) return;
    const rel = safeEntryPath(file.name);
    if (!rel) {
      problems.push({ item: file.name.slice(0, 200), outcome: "failed", reason: "zipEntryUnsafe" });
      return;
    }
    entries += 1;
    if (entries > maxEntries) {
      refused = `more than ${maxEntries} entries`;
      return;
    }
    const entry: Pending = { rel, chunks: [], size: 0, done: false, error: null };
    pending.push(entry);
    file.ondata = (error, data, final) => {
      if (error) {
        entry.error = error.message;
        entry.done = true;
        return;
      }
      const room = limits.entryMaxBytes + 1 - entry.size;
      const kept = data.length > room ? data.subarray(0, Math.max(0, room)) : data;
      entry.chunks.push(kept);
      entry.size += kept.length;
      total += kept.length;
      if (total > totalMax) refused = `unpacks to more than ${totalMax} bytes`;
      if (entry.size > limits.entryMaxBytes) {
        // Enough to tell it is too large: stop inflating it (a zip bomb ends here).
        entry.done = true;
        file.terminate();
      } else if (final) entry.done = true;
    };
    file.start();
  };
  const flush = async () => {
    while (pending[0]?.done) {
      const entry = pending.shift() as Pending;
      if (entry.error) {
        problems.push({ item: entry.rel, outcome: "failed", reason: "zipEntryBroken", detail: entry.error });
        continue;
      }
      const target = path.join(dir, entry.rel);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, Buffer.concat(entry.chunks));
    }
  };
  try {
    for await (const chunk of createReadStream(zipFile, { highWaterMark: 256 * 1024 })) {
      unzip.push(chunk as Buffer, false);
      if (refused) throw new SourceRefused(`zip refused: ${refused}`);
      await flush();
    }
    unzip.push(new Uint8Array(0), true);
    if (refused) throw new SourceRefused(`zip refused: ${refused}`);
    await flush();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof SourceRefused) throw error;
    throw new SourceRefused(`not a readable zip: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (pending.length > 0) problems.push({ item: zipFile, outcome: "failed", reason: "zipTruncated" });
  await writeFile(path.join(dir, COMPLETE), "");
  return { dir, root: await contentRoot(dir), problems };
}

/**
 * Removes unpacked zips (and the image folders of uploaded Ghost and WordPress exports) under
 * `importsDir` that no unfinished import reads any more (`inUse`: the folders of staged, queued
 * and running imports), and uploads left behind. Folders younger
 * than `minAgeMs` are kept: a dry run may be reading one that no import names yet.
 */
export async function pruneUnpacked(
  importsDir: string,
  inUse: readonly string[],
  minAgeMs = 60 * 60_000,
): Promise<number> {
  const entries = await readdir(importsDir, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const e of entries) {
    // Unpacked zips, uploads being unpacked, and the empty image folders of uploaded Ghost and WordPress exports.
    if (!/^(zip|upload|ghost|wordpress)-/.test(e.name)) continue;
    const full = path.join(importsDir, e.name);
    if (inUse.some((dir) => dir === full || dir.startsWith(`${full}${path.sep}`))) continue;
    const info = await stat(full).catch(() => null);
    if (!info || Date.now() - info.mtimeMs < minAgeMs) continue;
    await rm(full, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
