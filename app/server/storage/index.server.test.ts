import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createStorage } from "./index.server.ts";

describe("createStorage", () => {
  it("builds the local driver for STORAGE_DRIVER=local, writing under the configured root", async () => {
    const sandbox = mkdtempSync(path.join(os.tmpdir(), "inkwell-index-"));
    try {
      const root = path.join(sandbox, "uploads");
      const driver = await createStorage({ driver: "local", root });
      expect(driver.kind).toBe("local");
      await driver.put("a.png", Buffer.from("x"), { contentType: "image/png", cacheControl: "no-cache" });
      expect(readdirSync(root)).toContain("a.png");
    } finally {
      rmSync(sandbox, { recursive: true, force: true });
    }
  });

  it("builds the S3 driver for STORAGE_DRIVER=s3, with the configured bucket and public address", async () => {
    const driver = await createStorage({
      driver: "s3",
      endpoint: "http://127.0.0.1:9",
      region: "us-east-1",
      bucket: "inkwell-media",
      accessKeyId: "id",
      secretAccessKey: "secret",
      publicUrl: "https://cdn.example.com",
      prefix: "blog/",
    });
    expect(driver.kind).toBe("s3");
    expect(driver.bucket).toBe("inkwell-media");
    expect(driver.publicUrl("ab/x.png")).toBe("https://cdn.example.com/blog/ab/x.png");
  });
});
