import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  contentTypeForKey,
  createLocalStorage,
  LOCAL_CACHE_CONTROL,
  LOCAL_TEMP_DIR,
  type LocalFileSystem,
  resolveInsideRoot,
} from "./local.server.ts";
import { StorageError } from "./types.server.ts";

const PNG = { contentType: "image/png", cacheControl: LOCAL_CACHE_CONTROL };

function errno(code: string): Error {
  return Object.assign(new Error(`${code}: injected`), { code });
}

async function caught(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StorageError) return error;
    throw error;
  }
  throw new Error("expected a StorageError");
}

/** Every file under a folder, relative, dot-folders included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

let sandbox: string;
let root: string;
const sleeps: number[] = [];
const timing = {
  sleep: async (ms: number) => {
    sleeps.push(ms);
  },
  random: () => 1,
};

beforeEach(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), "inkwell-local-"));
  root = path.join(sandbox, "uploads");
  sleeps.length = 0;
});
afterEach(() => {
  rmSync(sandbox, { recursive: true, force: true });
});

describe("local storage faults", () => {
  it("turns a full disk during the write into quota-exceeded (507) and leaves no file behind", async () => {
    let tempPath = "";
    let partialExisted = false;
    let opens = 0;
    const fs: Partial<LocalFileSystem> = {
      async open(file, flags, mode) {
        opens++;
        tempPath = file;
        const real = await open(file, flags, mode);
        return {
          // Half the bytes reach the disk, then the disk is full.
          async writeFile(data) {
            await real.write(data.subarray(0, Math.floor(data.length / 2)));
            partialExisted = existsSync(file);
            throw errno("ENOSPC");
          },
          sync: () => real.sync(),
          close: () => real.close(),
        };
      },
    };
    const driver = createLocalStorage(root, { fs, retry: timing });
    const error = await caught(driver.put("ab/cd/640.webp", Buffer.alloc(4096, 7), PNG));

    expect(error.code).toBe("quota-exceeded");
    expect(error.status).toBe(507);
    expect(error.transient).toBe(false);
    expect(opens).toBe(1);
    expect(sleeps).toEqual([]);
    expect(partialExisted).toBe(true);
    expect(path.dirname(tempPath)).toBe(path.join(root, LOCAL_TEMP_DIR));
    expect(existsSync(tempPath)).toBe(false);
    expect(filesUnder(sandbox)).toEqual([]);
    expect(await driver.head("ab/cd/640.webp")).toBeNull();
  });

  it("removes the temp file when the rename fails, and maps EACCES to unauthorized", async () => {
    const driver = createLocalStorage(root, {
      fs: {
        rename: async () => {
          throw errno("EACCES");
        },
      },
      retry: timing,
    });
    const error = await caught(driver.put("ab/x.png", Buffer.from("bytes"), PNG));
    expect(error.code).toBe("unauthorized");
    expect(error.status).toBe(403);
    expect(filesUnder(sandbox)).toEqual([]);
  });

  it("retries a transient EMFILE and then writes the object", async () => {
    let opens = 0;
    const driver = createLocalStorage(root, {
      fs: {
        async open(file, flags, mode) {
          opens++;
          if (opens === 1) throw errno("EMFILE");
          return open(file, flags, mode);
        },
      },
      retry: timing,
    });
    const stored = await driver.put("ab/x.png", Buffer.from("bytes"), PNG);
    expect(stored.size).toBe(5);
    expect(opens).toBe(2);
    expect(sleeps).toEqual([200]);
    expect(filesUnder(root)).toEqual([path.join("ab", "x.png")]);
  });
});

describe("local storage paths", () => {
  it("keeps resolved paths inside the root even if a bad key got past the first guard", () => {
    for (const key of ["../x", "a/../../x", "/etc/passwd", "..", "", ".", `${LOCAL_TEMP_DIR}/x`, "a/../.tmp/y"]) {
      let code: string | null = null;
      try {
        resolveInsideRoot(root, key);
      } catch (error) {
        code = error instanceof StorageError ? error.code : "other";
      }
      expect({ key, code }).toEqual({ key, code: "invalid-url" });
    }
    expect(resolveInsideRoot(root, "ab/cd/640.webp")).toBe(path.join(root, "ab", "cd", "640.webp"));
  });

  it("does not list its temp folder or dot files", async () => {
    const driver = createLocalStorage(root);
    await driver.put("ab/x.png", Buffer.from("x"), PNG);
    mkdirSync(path.join(root, LOCAL_TEMP_DIR), { recursive: true });
    writeFileSync(path.join(root, LOCAL_TEMP_DIR, "leftover.tmp"), "x");
    writeFileSync(path.join(root, "ab", ".DS_Store"), "x");
    const keys: string[] = [];
    for await (const key of driver.list()) keys.push(key);
    expect(keys).toEqual(["ab/x.png"]);
  });

  it("treats a folder as an absent object", async () => {
    const driver = createLocalStorage(root);
    await driver.put("ab/cd/x.png", Buffer.from("x"), PNG);
    expect(await driver.head("ab/cd")).toBeNull();
    expect((await caught(driver.get("ab/cd"))).code).toBe("object-not-found");
  });
});

describe("local storage metadata", () => {
  it("infers the content type from the key's extension", () => {
    expect(contentTypeForKey("a/b.webp")).toBe("image/webp");
    expect(contentTypeForKey("a/b.jpg")).toBe("image/jpeg");
    expect(contentTypeForKey("a/b.jpeg")).toBe("image/jpeg");
    expect(contentTypeForKey("a/b.png")).toBe("image/png");
    expect(contentTypeForKey("a/b.gif")).toBe("image/gif");
    expect(contentTypeForKey("a/b.avif")).toBe("image/avif");
    expect(contentTypeForKey("a/b.html")).toBe("application/octet-stream");
    expect(contentTypeForKey("a/webp")).toBe("application/octet-stream");
  });

  it("answers get and head with the inferred type, the immutable cache rule and the local bucket", async () => {
    const driver = createLocalStorage(root);
    const stored = await driver.put("ab/photo.jpeg", Buffer.from("jpeg bytes"), {
      contentType: "text/html",
      cacheControl: "no-store",
    });
    expect(stored).toMatchObject({ bucket: "local", fullPath: "local/ab/photo.jpeg", contentType: "image/jpeg" });
    const got = await driver.get("ab/photo.jpeg");
    got.body.destroy();
    expect(got.contentType).toBe("image/jpeg");
    expect(got.cacheControl).toBe("public, max-age=31536000, immutable");
    expect(got.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/);
    expect(driver.publicUrl("ab/photo.jpeg")).toBeNull();
    expect(await driver.ping()).toBe(true);
  });
});
