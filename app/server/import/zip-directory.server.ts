import type { FileHandle } from "node:fs/promises";

// A zip's central directory, read from the end of the file (the zip's own table of contents),
// so that unpacking (zip.server.ts) knows every entry's compressed size before it inflates a
// byte: the ratio of what an entry writes to what it is stored as is checked against that
// size, and an entry is never fed more than its stored bytes. Zip64 sizes and offsets are
// read too. Nothing here inflates anything.

export class ZipFormatError extends Error {
  override name = "ZipFormatError";
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; anything else is not unpacked. */
  method: number;
  encrypted: boolean;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** The end record (22 bytes) and the longest comment a zip may carry after it. */
const TAIL_MAX = 22 + 0xffff;
/** A central directory larger than this is refused before it is read (50,000 entries of ~1 KiB names). */
const DIRECTORY_MAX_BYTES = 64 * 1024 * 1024;

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipFormatError("the zip ends early");
  return buffer;
}

const u64 = (b: Buffer, at: number): number => {
  const n = b.readBigUInt64LE(at);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipFormatError("a size beyond what a zip may hold");
  return Number(n);
};

/** The directory's place and entry count, from the end record (or its Zip64 twin). */
async function endRecord(
  handle: FileHandle,
  fileSize: number,
): Promise<{ entries: number; offset: number; size: number }> {
  const tailLength = Math.min(fileSize, TAIL_MAX);
  const tail = await readAt(handle, fileSize - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipFormatError("no end of central directory record");
  let entries = tail.readUInt16LE(at + 10);
  let size = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  const locatorAt = fileSize - tailLength + at - 20;
  if ((entries === 0xffff || size === 0xffffffff || offset === 0xffffffff) && locatorAt >= 0) {
    const locator = await readAt(handle, locatorAt, 20);
    if (locator.readUInt32LE(0) === ZIP64_LOCATOR) {
      const record = await readAt(handle, u64(locator, 8), 56);
      if (record.readUInt32LE(0) !== ZIP64_EOCD) throw new ZipFormatError("a broken Zip64 end record");
      entries = u64(record, 32);
      size = u64(record, 40);
      offset = u64(record, 48);
    }
  }
  if (offset + size > fileSize) throw new ZipFormatError("the central directory lies past the end of the file");
  return { entries, offset, size };
}

/**
 * The entries of the zip open as `handle`. `maxEntries` is checked against the end record's
 * count before the directory is read (a zip claiming millions of entries costs nothing).
 */
export async function readZipDirectory(
  handle: FileHandle,
  fileSize: number,
  maxEntries: number,
): Promise<{ entries: ZipEntry[]; tooMany: boolean }> {
  const end = await endRecord(handle, fileSize);
  if (end.entries > maxEntries) return { entries: [], tooMany: true };
  if (end.size > DIRECTORY_MAX_BYTES) throw new ZipFormatError("a central directory larger than 64 MiB");
  const dir = await readAt(handle, end.offset, end.size);
  const entries: ZipEntry[] = [];
  const names = new TextDecoder("utf-8");
  let at = 0;
  while (at + 46 <= dir.length && dir.readUInt32LE(at) === CENTRAL) {
    if (entries.length >= maxEntries) return { entries: [], tooMany: true };
    const flags = dir.readUInt16LE(at + 8);
    const nameLength = dir.readUInt16LE(at + 28);
    const extraLength = dir.readUInt16LE(at + 30);
    const commentLength = dir.readUInt16LE(at + 32);
    const end = at + 46 + nameLength + extraLength + commentLength;
    if (end > dir.length) throw new ZipFormatError("a central directory entry runs past the directory");
    let size = dir.readUInt32LE(at + 24);
    let compressedSize = dir.readUInt32LE(at + 20);
    let localOffset = dir.readUInt32LE(at + 42);
    // Zip64: the sizes and offset that did not fit are in extra field 1, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = dir.readUInt16LE(extra);
      const length = dir.readUInt16LE(extra + 2);
      if (id === 1) {
        let field = extra + 4;
        const take = () => {
          if (field + 8 > extra + 4 + length) throw new ZipFormatError("a short Zip64 extra field");
          const value = u64(dir, field);
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = take();
        if (compressedSize === 0xffffffff) compressedSize = take();
        if (localOffset === 0xffffffff) localOffset = take();
      }
      extra += 4 + length;
    }
    entries.push({
      name: names.decode(dir.subarray(at + 46, at + 46 + nameLength)),
      method: dir.readUInt16LE(at + 10),
      encrypted: (flags & 1) === 1,
      crc32: dir.readUInt32LE(at + 16),
      compressedSize,
      size,
      localOffset,
    });
    at = end;
  }
  return { entries, tooMany: false };
}

/** Where an entry's stored bytes start: past its local header, whose name and extra lengths may differ from the directory's. */
export async function entryDataOffset(handle: FileHandle, fileSize: number, entry: ZipEntry): Promise<number> {
  if (entry.localOffset + 30 > fileSize) throw new ZipFormatError("an entry's header lies past the end of the file");
  const header = await readAt(handle, entry.localOffset, 30);
  if (header.readUInt32LE(0) !== LOCAL) throw new ZipFormatError("an entry without its local header");
  const start = entry.localOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (start + entry.compressedSize > fileSize)
    throw new ZipFormatError("an entry's data runs past the end of the file");
  return start;
}
