import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestS3 } from "../../../tests/setup/s3rver.ts";
import { createLocalStorage } from "./local.server.ts";
import { createS3Storage } from "./s3.server.ts";
import { type StorageDriver, StorageError } from "./types.server.ts";

interface Harness {
  driver: StorageDriver;
  /** Everything physically stored anywhere the driver could have written. */
  everything(): Promise<string[]>;
  close(): Promise<void>;
}

const md5 = (data: Buffer) => createHash("md5").update(data).digest("hex");
const PNG = { contentType: "image/png", cacheControl: "public, max-age=31536000, immutable" };

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "resolved";
  } catch (error) {
    return error instanceof StorageError ? error.code : `foreign: ${String(error)}`;
  }
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of iterable) keys.push(key);
  return keys.sort();
}

/** One behaviour, checked the same way for every driver. */
function describeDriverContract(name: string, makeHarness: () => Promise<Harness>): void {
  describe(`storage contract: ${name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h.close();
    });

    it("round-trips put, head, get, list and delete", async () => {
      const data = Buffer.from("round trip bytes \u00e9\u4e2d");
      const key = "rt/ab12/640.png";
      const stored = await h.driver.put(key, data, PNG);
      expect(stored.name).toBe(key);
      expect(stored.bucket).toBe(h.driver.bucket);
      expect(stored.fullPath.endsWith(key)).toBe(true);
      expect(stored.size).toBe(data.length);
      expect(stored.md5Hash).toBe(md5(data));
      expect(stored.generation).toMatch(/^\d+$/);

      const head = await h.driver.head(key);
      expect(head).toMatchObject({ name: key, size: data.length, md5Hash: md5(data), contentType: "image/png" });
      expect(head?.cacheControl).toBe(PNG.cacheControl);

      const got = await h.driver.get(key);
      expect(got.size).toBe(data.length);
      expect(got.contentType).toBe("image/png");
      expect(got.etag.length).toBeGreaterThan(2);
      expect(got.lastModified).toBeInstanceOf(Date);
      expect(await text(got.body)).toBe(data.toString());

      expect(await collect(h.driver.list("rt/"))).toEqual([key]);

      await h.driver.delete(key);
      expect(await h.driver.head(key)).toBeNull();
      expect(await codeOf(h.driver.get(key))).toBe("object-not-found");
      expect(await collect(h.driver.list("rt/"))).toEqual([]);
    });

    it("overwrites an object in place", async () => {
      const key = "ow/x.webp";
      await h.driver.put(key, Buffer.from("first version"), PNG);
      const second = Buffer.from("second, longer version");
      const stored = await h.driver.put(key, second, PNG);
      expect(stored.md5Hash).toBe(md5(second));
      expect((await h.driver.head(key))?.md5Hash).toBe(md5(second));
      expect(await text((await h.driver.get(key)).body)).toBe(second.toString());
      expect(await collect(h.driver.list("ow/"))).toEqual([key]);
    });

    it("answers object-not-found (404) for an absent key, null from head, and deletes it quietly", async () => {
      let error: unknown = null;
      try {
        await h.driver.get("absent/none.png");
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(StorageError);
      expect((error as StorageError).code).toBe("object-not-found");
      expect((error as StorageError).status).toBe(404);
      expect(await h.driver.head("absent/none.png")).toBeNull();
      await expect(h.driver.delete("absent/none.png")).resolves.toBeUndefined();
    });

    it("refuses hostile keys with invalid-url in every method and writes nothing anywhere", async () => {
      const hostile = ["../../x", "..\\x", "%2e%2e%2f", "a.png\0.html", "/abs", "a".repeat(301), "Upper/Case.png"];
      const before = await h.everything();
      for (const key of hostile) {
        const codes = {
          key,
          put: await codeOf(h.driver.put(key, Buffer.from("evil"), PNG)),
          get: await codeOf(h.driver.get(key)),
          head: await codeOf(h.driver.head(key)),
          delete: await codeOf(h.driver.delete(key)),
          list: await codeOf(collect(h.driver.list(key))),
          publicUrl: await codeOf(Promise.resolve().then(() => h.driver.publicUrl(key))),
        };
        expect(codes).toEqual({
          key,
          put: "invalid-url",
          get: "invalid-url",
          head: "invalid-url",
          delete: "invalid-url",
          list: "invalid-url",
          publicUrl: "invalid-url",
        });
      }
      expect(await h.everything()).toEqual(before);
    });

    it("lists by key prefix, including a prefix that ends mid-segment", async () => {
      const keys = ["lp/aa/one.png", "lp/aa/two.webp", "lp/aab/three.png", "lp/ab/four.gif"];
      for (const key of keys) await h.driver.put(key, Buffer.from(key), PNG);
      expect(await collect(h.driver.list("lp/aa/"))).toEqual(["lp/aa/one.png", "lp/aa/two.webp"]);
      expect(await collect(h.driver.list("lp/aa"))).toEqual(["lp/aa/one.png", "lp/aa/two.webp", "lp/aab/three.png"]);
      expect(await collect(h.driver.list("lp/"))).toEqual(keys);
      expect(await collect(h.driver.list("lp/zz/"))).toEqual([]);
      const all = await collect(h.driver.list());
      for (const key of keys) expect(all).toContain(key);
    });

    it("reports itself reachable", async () => {
      expect(await h.driver.ping()).toBe(true);
    });
  });
}

/** Every file under a folder, dot-folders (the temp folder) included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

describeDriverContract("local", async () => {
  // The root sits two levels down so "../../x" would still land inside the sandbox we inspect.
  const sandbox = mkdtempSync(path.join(os.tmpdir(), "inkwell-contract-"));
  const root = path.join(sandbox, "data", "uploads");
  return {
    driver: createLocalStorage(root),
    everything: async () => filesUnder(sandbox),
    close: async () => rmSync(sandbox, { recursive: true, force: true }),
  };
});

describeDriverContract("s3 (s3rver)", async () => {
  const s3 = await startTestS3(["inkwell-media"]);
  return {
    // A prefix, so that its adding and stripping is part of the contract too.
    driver: createS3Storage(s3.config({ prefix: "site/" })),
    everything: () => s3.allKeys("inkwell-media"),
    close: () => s3.stop(),
  };
});
