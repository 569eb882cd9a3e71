import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { type FileHandle, mkdir, open, readdir, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { crc32, createInflateRaw } from "node:zlib";
import type { ImportReportLine } from "./core.server.ts";
import { SourceRefused } from "./markdown-folder.server.ts";
import { entryDataOffset, readZipDirectory, type ZipEntry, ZipFormatError } from "./zip-directory.server.ts";

// A zip of a blog folder, unpacked for an import (docs/decisions/020-importers.md; the budgets:
// 030-import-upload-budget.md). Entries are found in the zip's central directory and each is
// streamed to its file through zlib (which inflates on libuv's threads), its bytes counted as
// they are written: an entry is cut off past `entryMaxBytes` (the size checks after it report
// it), the whole zip is refused before it writes past `totalMaxBytes`, and an entry that writes
// more than `ratioMax` times its stored size is refused as a zip bomb. A refused zip leaves
// nothing behind. Entry names that would leave the folder are refused and listed.

/** The most entries one zip may have. */
export const ZIP_MAX_ENTRIES = 50_000;
/** The most bytes one zip may unpack to, all entries together. */
export const ZIP_MAX_TOTAL_BYTES = 1024 * 1024 * 1024;
/**
 * The most an entry may unpack to per byte stored. Text deflates 3–10 to 1 and images not at
 * all; zip bombs reach ~1,000 to 1 (deflate's ceiling).
 */
export const ZIP_MAX_RATIO = 100;
/** Entries are held to the ratio once they have written this much: a small file of spaces is no bomb. */
export const ZIP_RATIO_FLOOR_BYTES = 1024 * 1024;
/**
 * What a zip uploaded on the admin page may unpack to: twenty times the upload limit (a blog's
 * Markdown deflates 3–5 to 1, its images not at all), and never more than ZIP_MAX_TOTAL_BYTES.
 */
export function uploadZipBudget(uploadMaxBytes: number): number {
  return Math.min(ZIP_MAX_TOTAL_BYTES, 20 * uploadMaxBytes);
}

/** Written once an unpacking finished: a folder without it is unpacked again. */
const COMPLETE = ".inkwell-unpacked";

/** Why a zip was refused as a whole, for the messages shown. */
export type ZipRefusal = "entries" | "size" | "ratio";

export class ZipRefused extends SourceRefused {
  override name = "ZipRefused";
  readonly reason: ZipRefusal;
  /** The bytes written before it was refused (all removed since). */
  readonly written: number;
  constructor(reason: ZipRefusal, message: string, written = 0) {
    super(`zip refused: ${message}`);
    this.reason = reason;
    this.written = written;
  }
}

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

/** The folder to import: the zip's single top folder when everything is inside one. */
async function contentRoot(dest: string): Promise<string> {
  const entries = (await readdir(dest, { withFileTypes: true })).filter((e) => !e.name.startsWith("."));
  const [only] = entries;
  return entries.length === 1 && only?.isDirectory() ? path.join(dest, only.name) : dest;
}

export interface ZipLimits {
  entryMaxBytes: number;
  totalMaxBytes?: number;
  maxEntries?: number;
  ratioMax?: number;
}

/** What one unpacking has written so far, across its entries. */
interface Budget {
  written: number;
  readonly total: number;
  readonly ratio: number;
}

/** Thrown inside an entry's stream: its data is broken (listed, the rest of the zip goes on). */
class EntryBroken extends Error {}

/**
 * Streams one entry to `target`, counting its bytes against the entry's cap, its ratio and the
 * zip's budget before each write. Throws ZipRefused (the zip stops) or EntryBroken (this entry).
 */
async function writeEntry(
  zipFile: string,
  start: number,
  entry: ZipEntry,
  target: string,
  entryMax: number,
  budget: Budget,
): Promise<void> {
  const out: FileHandle = await open(target, "w");
  const source =
    entry.compressedSize > 0
      ? createReadStream(zipFile, { start, end: start + entry.compressedSize - 1, highWaterMark: 64 * 1024 })
      : null;
  const inflate = source && entry.method === 8 ? createInflateRaw({ chunkSize: 64 * 1024 }) : null;
  try {
    if (!source) return;
    let stream: NodeJS.ReadableStream = source;
    if (inflate) {
      source.on("error", (error) => inflate.destroy(error));
      stream = source.pipe(inflate);
    }
    const ratioCap = Math.max(ZIP_RATIO_FLOOR_BYTES, budget.ratio * entry.compressedSize);
    let size = 0;
    let crc = 0;
    let cut = false;
    try {
      for await (const data of stream) {
        let chunk = data as Buffer;
        if (size + chunk.length > ratioCap)
          throw new ZipRefused(
            "ratio",
            `${entry.name} unpacks to more than ${budget.ratio} times its stored size`,
            budget.written,
          );
        const room = entryMax + 1 - size;
        if (chunk.length > room) {
          chunk = chunk.subarray(0, room);
          cut = true;
        }
        if (budget.written + chunk.length > budget.total)
          throw new ZipRefused("size", `unpacks to more than ${budget.total} bytes`, budget.written);
        budget.written += chunk.length;
        size += chunk.length;
        crc = crc32(chunk, crc);
        await out.write(chunk);
        // Enough to tell it is too large: the rest is not inflated.
        if (cut) break;
      }
    } catch (error) {
      if (error instanceof ZipRefused) throw error;
      throw new EntryBroken(error instanceof Error ? error.message : String(error));
    }
    if (!cut && crc >>> 0 !== entry.crc32) throw new EntryBroken("its checksum does not match");
  } finally {
    source?.destroy();
    inflate?.destroy();
    await out.close();
  }
}

/**
 * Unpacks `zipFile` under `workDir` (in a folder named by the zip's SHA-256, so the same zip
 * again finds its folder and an unfinished import of it) and returns the folder to import.
 */
export async function unpackZip(
  zipFile: string,
  workDir: string,
  limits: ZipLimits,
): Promise<{ dir: string; root: string; problems: ImportReportLine[] }> {
  const info = await stat(zipFile).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${zipFile}`);
  const dir = path.join(workDir, `zip-${(await sha256Of(zipFile)).slice(0, 24)}`);
  const problems: ImportReportLine[] = [];
  if (await stat(path.join(dir, COMPLETE)).catch(() => null)) return { dir, root: await contentRoot(dir), problems };
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const maxEntries = limits.maxEntries ?? ZIP_MAX_ENTRIES;
  const budget: Budget = {
    written: 0,
    total: limits.totalMaxBytes ?? ZIP_MAX_TOTAL_BYTES,
    ratio: limits.ratioMax ?? ZIP_MAX_RATIO,
  };
  const handle = await open(zipFile, "r");
  try {
    const { entries, tooMany } = await readZipDirectory(handle, info.size, maxEntries);
    if (tooMany) throw new ZipRefused("entries", `more than ${maxEntries} entries`);
    for (const entry of entries) {
      if (entry.name.endsWith("/") || entry.name.startsWith("__MACOSX/")) continue;
      const rel = safeEntryPath(entry.name);
      if (!rel) {
        problems.push({ item: entry.name.slice(0, 200), outcome: "failed", reason: "zipEntryUnsafe" });
        continue;
      }
      const broken = (detail: string) =>
        problems.push({ item: rel.slice(0, 200), outcome: "failed", reason: "zipEntryBroken", detail });
      if (entry.encrypted) {
        broken("encrypted");
        continue;
      }
      if (entry.method !== 0 && entry.method !== 8) {
        broken(`compression method ${entry.method}`);
        continue;
      }
      const start = await entryDataOffset(handle, info.size, entry);
      const target = path.join(dir, rel);
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await writeEntry(zipFile, start, entry, target, limits.entryMaxBytes, budget);
      } catch (error) {
        if (error instanceof ZipRefused) throw error;
        // A broken entry, or a name that clashes with a folder: listed, and nothing of it kept.
        broken(error instanceof Error ? error.message.slice(0, 200) : String(error));
        await rm(target, { force: true }).catch(() => {});
      }
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (error instanceof SourceRefused) throw error;
    if (error instanceof ZipFormatError) throw new SourceRefused(`not a readable zip: ${error.message}`);
    throw error;
  } finally {
    await handle.close();
  }
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
  now: number = Date.now(),
): Promise<number> {
  const entries = await readdir(importsDir, { withFileTypes: true }).catch(() => []);
  let removed = 0;
  for (const e of entries) {
    // Unpacked zips, uploads being unpacked, and the empty image folders of uploaded Ghost and WordPress exports.
    if (!/^(zip|upload|ghost|wordpress)-/.test(e.name)) continue;
    const full = path.join(importsDir, e.name);
    if (inUse.some((dir) => dir === full || dir.startsWith(`${full}${path.sep}`))) continue;
    const info = await stat(full).catch(() => null);
    if (!info || now - info.mtimeMs < minAgeMs) continue;
    await rm(full, { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}
