import { createHash } from "node:crypto";
import { once } from "node:events";
import type { Readable, Writable } from "node:stream";

/**
 * A small ustar (POSIX tar) writer and reader: regular files only, names longer
 * than ustar allows go in a pax "path" record. Enough for our own backups, which
 * `tar -tzf` and `tar -xzf` also read. The reader refuses anything it did not
 * expect (links, devices, absolute or climbing names, bad header checksums, a
 * missing end marker), so a damaged archive fails loudly instead of half-reading.
 */

const BLOCK = 512;
const ZERO_BLOCK = Buffer.alloc(BLOCK);

export class ArchiveError extends Error {
  override name = "ArchiveError";
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, "0")}\0`;
}

function header(name: string, size: number, mtime: number, type: "0" | "x"): Buffer {
  const block = Buffer.alloc(BLOCK);
  let base = name;
  let prefix = "";
  if (Buffer.byteLength(name) > 100) {
    // ustar splits a long name at a "/" into prefix (155) and name (100).
    const cut = name.lastIndexOf("/", 155);
    if (cut > 0 && Buffer.byteLength(name.slice(cut + 1)) <= 100 && Buffer.byteLength(name.slice(0, cut)) <= 155) {
      prefix = name.slice(0, cut);
      base = name.slice(cut + 1);
    } else {
      base = name.slice(0, 100);
    }
  }
  block.write(base, 0, 100, "utf8");
  block.write(octal(0o644, 8), 100, "ascii");
  block.write(octal(0, 8), 108, "ascii");
  block.write(octal(0, 8), 116, "ascii");
  block.write(octal(size, 12), 124, "ascii");
  block.write(octal(Math.floor(mtime / 1000), 12), 136, "ascii");
  block.write("        ", 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\0", 257, "ascii");
  block.write("00", 263, "ascii");
  block.write(prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

function fits(name: string): boolean {
  if (Buffer.byteLength(name) <= 100) return true;
  const cut = name.lastIndexOf("/", 155);
  return cut > 0 && Buffer.byteLength(name.slice(cut + 1)) <= 100 && Buffer.byteLength(name.slice(0, cut)) <= 155;
}

/** One pax record: "<length> path=<name>\n", where length counts the whole record. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return Buffer.from(`${length}${body}`, "utf8");
}

export interface TarWriter {
  /** Adds one file of exactly `size` bytes; returns its hex SHA-256. */
  add(name: string, size: number, content: Buffer | AsyncIterable<Buffer | Uint8Array>): Promise<string>;
  /** Writes the end marker and ends the output. */
  finish(): Promise<void>;
}

/** Writes a tar stream into `out` (usually a gzip stream), honouring back-pressure. */
export function createTarWriter(out: Writable, now: number = Date.now()): TarWriter {
  const write = async (chunk: Buffer): Promise<void> => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  const pad = async (size: number): Promise<void> => {
    const rest = size % BLOCK;
    if (rest !== 0) await write(Buffer.alloc(BLOCK - rest));
  };
  return {
    async add(name, size, content) {
      if (!isSafeEntryName(name)) throw new ArchiveError(`unsafe archive entry name: ${name}`);
      if (!fits(name)) {
        const record = paxPath(name);
        await write(header("PaxHeader", record.length, now, "x"));
        await write(record);
        await pad(record.length);
      }
      await write(header(name, size, now, "0"));
      const hash = createHash("sha256");
      let written = 0;
      const chunks: AsyncIterable<Buffer | Uint8Array> | Buffer[] = Buffer.isBuffer(content) ? [content] : content;
      for await (const raw of chunks) {
        const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
        written += chunk.length;
        if (written > size) throw new ArchiveError(`${name} grew while it was archived`);
        hash.update(chunk);
        await write(chunk);
      }
      if (written !== size) throw new ArchiveError(`${name} shrank while it was archived`);
      await pad(size);
      return hash.digest("hex");
    },
    async finish() {
      await write(ZERO_BLOCK);
      await write(ZERO_BLOCK);
      out.end();
    },
  };
}

/** Relative, no empty, "." or ".." segments, no backslashes or NULs. */
export function isSafeEntryName(name: string): boolean {
  if (name.length === 0 || name.length > 1000 || name.startsWith("/")) return false;
  if (/[\\\0]/.test(name)) return false;
  return name.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

export interface TarEntry {
  name: string;
  size: number;
}

/** Receives one entry's bytes in order; `end` runs after the last chunk. */
export interface TarSink {
  write(chunk: Buffer): void | Promise<void>;
  end(): void | Promise<void>;
}

function readString(block: Buffer, start: number, length: number): string {
  const slice = block.subarray(start, start + length);
  const nul = slice.indexOf(0);
  return slice.subarray(0, nul === -1 ? length : nul).toString("utf8");
}

function readOctal(block: Buffer, start: number, length: number): number {
  const text = readString(block, start, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError("damaged archive: bad number in a header");
  return Number.parseInt(text, 8);
}

function parseHeader(block: Buffer): { name: string; size: number; type: string } {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0);
  if (readOctal(block, 148, 8) !== sum) throw new ArchiveError("damaged archive: header checksum mismatch");
  const prefix = readString(block, 345, 155);
  const base = readString(block, 0, 100);
  return {
    name: prefix ? `${prefix}/${base}` : base,
    size: readOctal(block, 124, 12),
    type: String.fromCharCode(block[156] ?? 0),
  };
}

function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = Number(data.subarray(at, space).toString("ascii"));
    if (space < 0 || !Number.isInteger(length) || length <= 0)
      throw new ArchiveError("damaged archive: bad pax record");
    const record = data.subarray(space + 1, at + length - 1).toString("utf8");
    const eq = record.indexOf("=");
    out.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return out;
}

/**
 * Reads a tar stream, handing each regular file to the sink `onEntry` returns.
 * Throws ArchiveError on anything malformed, including a stream that ends early.
 */
export async function readTar(
  input: Readable,
  onEntry: (entry: TarEntry) => TarSink | Promise<TarSink>,
): Promise<void> {
  let pending: Buffer = Buffer.alloc(0);
  let remaining = 0; // content bytes left in the current entry
  let padding = 0; // bytes to skip after it
  let sink: TarSink | null = null;
  let pax: Buffer[] | null = null;
  let nextName: string | null = null;
  let ended = false;

  const finishEntry = async () => {
    if (sink) await sink.end();
    sink = null;
    if (pax) {
      const path = paxRecords(Buffer.concat(pax)).get("path");
      if (path) nextName = path;
      pax = null;
    }
  };

  for await (const raw of input) {
    let chunk: Buffer = Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
    while (chunk.length > 0) {
      if (ended) {
        // Whatever follows the end marker must be zero padding.
        if (chunk.some((b) => b !== 0)) throw new ArchiveError("damaged archive: data after the end marker");
        chunk = Buffer.alloc(0);
        break;
      }
      if (remaining > 0) {
        const part = chunk.subarray(0, remaining);
        chunk = chunk.subarray(part.length);
        remaining -= part.length;
        if (sink) await sink.write(part);
        else pax?.push(Buffer.from(part));
        if (remaining === 0) {
          await finishEntry();
        }
        continue;
      }
      if (padding > 0) {
        const skip = Math.min(padding, chunk.length);
        chunk = chunk.subarray(skip);
        padding -= skip;
        continue;
      }
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      chunk = Buffer.alloc(0);
      while (pending.length >= BLOCK && remaining === 0 && padding === 0 && !ended) {
        const block = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (block.equals(ZERO_BLOCK)) {
          ended = true;
          break;
        }
        const h = parseHeader(block);
        padding = (BLOCK - (h.size % BLOCK)) % BLOCK;
        if (h.type === "x") {
          pax = [];
        } else if (h.type === "0" || h.type === "\0") {
          const name = nextName ?? h.name;
          nextName = null;
          if (!isSafeEntryName(name)) throw new ArchiveError(`unsafe archive entry name: ${name}`);
          sink = await onEntry({ name, size: h.size });
        } else {
          throw new ArchiveError(`unexpected archive entry type "${h.type}" (${h.name})`);
        }
        remaining = h.size;
        if (remaining === 0) await finishEntry();
      }
      // Whatever is left in `pending` belongs to the content or padding now.
      if (pending.length > 0 && (remaining > 0 || padding > 0 || ended)) {
        chunk = pending;
        pending = Buffer.alloc(0);
      }
    }
  }
  if (!ended || remaining > 0) throw new ArchiveError("damaged archive: it ends before its end marker");
}
