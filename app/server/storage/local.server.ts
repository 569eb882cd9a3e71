import { createHash, randomBytes } from "node:crypto";
import { constants, type Dirent } from "node:fs";
import * as fsp from "node:fs/promises";
import path from "node:path";
import { assertSafeKey, assertSafePrefix, isSafeKey } from "./keys.server.ts";
import {
  type RetryTiming,
  STORAGE_OPERATION_DEADLINE_MS,
  STORAGE_UPLOAD_DEADLINE_MS,
  withRetry,
} from "./retry.server.ts";
import {
  type ObjectInfo,
  type ObjectStream,
  type OperationOptions,
  type PutOptions,
  type StorageDriver,
  StorageError,
} from "./types.server.ts";

/** Local files are named by content and never change under one key. */
export const LOCAL_CACHE_CONTROL = "public, max-age=31536000, immutable";

/** Temp files live inside the root so the final rename never crosses a file system. */
export const LOCAL_TEMP_DIR = ".tmp";

const CONTENT_TYPES: Record<string, string> = {
  webp: "image/webp",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  avif: "image/avif",
};

/** The part of an open file the writer uses (a FileHandle has all of it). */
export interface LocalWriteHandle {
  writeFile(data: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** File-system calls the write path makes, replaceable so tests can inject faults. */
export interface LocalFileSystem {
  open(file: string, flags: string, mode: number): Promise<LocalWriteHandle>;
  rename(from: string, to: string): Promise<void>;
}

export interface LocalStorageOptions {
  fs?: Partial<LocalFileSystem>;
  retry?: RetryTiming & { deadlineMs?: number; uploadDeadlineMs?: number };
}

export function contentTypeForKey(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  return key.includes(".") ? (CONTENT_TYPES[ext] ?? "application/octet-stream") : "application/octet-stream";
}

/**
 * The absolute path of a key, refusing anything that would land outside the
 * root. assertSafeKey already makes that impossible; this is the second guard,
 * in case the key rules are ever loosened.
 */
export function resolveInsideRoot(root: string, key: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, key);
  const rel = path.relative(base, target);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep)[0] === LOCAL_TEMP_DIR) {
    throw new StorageError("invalid-url", "The storage key is not valid.");
  }
  return target;
}

function errnoOf(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

/** Turns a Node file-system error into a StorageError; already-mapped errors pass through. */
export function mapLocalError(error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  switch (errnoOf(error)) {
    case "ENOSPC":
    case "EDQUOT":
      return new StorageError("quota-exceeded", "The storage is full.", { cause: error });
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return new StorageError("unauthorized", "The storage refused access.", { cause: error });
    case "ENOENT":
    case "EISDIR":
    case "ENOTDIR":
      return new StorageError("object-not-found", "The stored object was not found.", { cause: error });
    case "EMFILE":
    case "ENFILE":
    case "EAGAIN":
    case "EBUSY":
      return new StorageError("unknown", "The storage is busy.", { cause: error, transient: true });
    default:
      return new StorageError("unknown", "The storage failed.", { cause: error });
  }
}

function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

async function md5OfFile(file: string): Promise<string> {
  const hash = createHash("md5");
  const handle = await fsp.open(file, "r");
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return hash.digest("hex");
}

/** Media on the local disk under `root` (default DATA_DIR/uploads). */
export function createLocalStorage(root: string, options: LocalStorageOptions = {}): StorageDriver {
  const base = path.resolve(root);
  const tempDir = path.join(base, LOCAL_TEMP_DIR);
  const fs: LocalFileSystem = {
    open: (file, flags, mode) => fsp.open(file, flags, mode),
    rename: (from, to) => fsp.rename(from, to),
    ...options.fs,
  };
  const timing = options.retry ?? {};
  const operationDeadline = timing.deadlineMs ?? STORAGE_OPERATION_DEADLINE_MS;
  const uploadDeadline = timing.uploadDeadlineMs ?? STORAGE_UPLOAD_DEADLINE_MS;

  const run = <T>(op: () => Promise<T>, deadlineMs: number, signal?: AbortSignal): Promise<T> =>
    withRetry(
      async () => {
        try {
          return await op();
        } catch (error) {
          throw mapLocalError(error);
        }
      },
      { ...timing, deadlineMs, signal },
    );

  const info = (key: string, size: number, md5Hash: string, mtimeMs: number): ObjectInfo => ({
    bucket: "local",
    name: key,
    fullPath: `local/${key}`,
    size,
    md5Hash,
    generation: String(Math.round(mtimeMs)),
    contentType: contentTypeForKey(key),
    cacheControl: LOCAL_CACHE_CONTROL,
    updated: new Date(Math.round(mtimeMs)),
  });

  /** Write to a temp file, flush it, rename it into place: readers see all or nothing. */
  async function writeAtomically(target: string, data: Buffer): Promise<void> {
    await fsp.mkdir(tempDir, { recursive: true });
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const temp = path.join(tempDir, `${randomBytes(16).toString("hex")}.tmp`);
    let handle: LocalWriteHandle | null = null;
    try {
      handle = await fs.open(temp, "wx", 0o644);
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
      handle = null;
      await fs.rename(temp, target);
    } catch (error) {
      await handle?.close().catch(() => undefined);
      await fsp.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
    // Make the rename itself durable; not every platform can fsync a directory.
    await fsp
      .open(path.dirname(target), "r")
      .then(async (dir) => {
        try {
          await dir.sync();
        } finally {
          await dir.close();
        }
      })
      .catch(() => undefined);
  }

  async function* walk(dir: string, relative: string): AsyncGenerator<string> {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw mapLocalError(error);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      // Dot entries are the driver's own (".tmp"); symlinks are never followed.
      if (entry.name.startsWith(".")) continue;
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
      else if (entry.isFile() && isSafeKey(key)) yield key;
    }
  }

  return {
    kind: "local",
    bucket: "local",

    async put(key: string, data: Buffer, putOptions: PutOptions): Promise<ObjectInfo> {
      assertSafeKey(key);
      const target = resolveInsideRoot(base, key);
      const md5Hash = createHash("md5").update(data).digest("hex");
      return run(
        async () => {
          await writeAtomically(target, data);
          const stat = await fsp.stat(target);
          return info(key, data.length, md5Hash, stat.mtimeMs);
        },
        putOptions.deadlineMs ?? uploadDeadline,
        putOptions.signal,
      );
    },

    async get(key: string, opts: OperationOptions = {}): Promise<ObjectStream> {
      assertSafeKey(key);
      const target = resolveInsideRoot(base, key);
      return run(
        async () => {
          // Open first and stat the open file, so size and bytes belong to the same file.
          const handle = await fsp.open(target, constants.O_RDONLY | constants.O_NOFOLLOW);
          try {
            const stat = await handle.stat();
            if (!stat.isFile()) throw new StorageError("object-not-found", "The stored object was not found.");
            return {
              body: handle.createReadStream(),
              size: stat.size,
              contentType: contentTypeForKey(key),
              cacheControl: LOCAL_CACHE_CONTROL,
              etag: `"${stat.ino.toString(16)}-${stat.size.toString(16)}-${Math.round(stat.mtimeMs).toString(16)}"`,
              lastModified: new Date(Math.round(stat.mtimeMs)),
            };
          } catch (error) {
            await handle.close();
            throw error;
          }
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async head(key: string, opts: OperationOptions = {}): Promise<ObjectInfo | null> {
      assertSafeKey(key);
      const target = resolveInsideRoot(base, key);
      return run(
        async () => {
          try {
            const stat = await fsp.lstat(target);
            if (!stat.isFile()) return null;
            return info(key, stat.size, await md5OfFile(target), stat.mtimeMs);
          } catch (error) {
            if (isMissing(error)) return null;
            throw error;
          }
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async delete(key: string, opts: OperationOptions = {}): Promise<void> {
      assertSafeKey(key);
      const target = resolveInsideRoot(base, key);
      // Empty folders are left in place: removing them would race a concurrent put
      // that has just created the folder and is about to rename into it.
      await run(
        async () => {
          try {
            await fsp.unlink(target);
          } catch (error) {
            if (!isMissing(error)) throw error;
          }
        },
        opts.deadlineMs ?? operationDeadline,
        opts.signal,
      );
    },

    async *list(prefix = ""): AsyncIterable<string> {
      assertSafePrefix(prefix);
      // Walk only the folder the prefix names completely, then filter by the rest.
      const folder = prefix.includes("/") ? prefix.slice(0, prefix.lastIndexOf("/")) : "";
      const start = folder ? resolveInsideRoot(base, folder) : base;
      for await (const key of walk(start, folder)) {
        if (key.startsWith(prefix)) yield key;
      }
    },

    publicUrl(key: string): string | null {
      assertSafeKey(key);
      // Local media is served by the app's own media route, not by a public address.
      return null;
    },

    async ping(): Promise<boolean> {
      try {
        await fsp.mkdir(base, { recursive: true });
        await fsp.access(base, constants.R_OK | constants.W_OK);
        return true;
      } catch {
        return false;
      }
    },
  };
}
