import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAVED_HEAD_BYTES, saveSingleFile } from "./multipart.server.ts";

// saveSingleFile: the admin Import upload's file goes to disk as it streams (issue 45), with
// the first bytes kept to tell what it is, and nothing left behind when it is refused.

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "inkwell-multipart-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function formRequest(file: Buffer, fields: Record<string, string> = { intent: "upload" }): Request {
  const boundary = "----inkwell-test";
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const body = Buffer.concat([
    Buffer.from(parts.join("")),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.json"\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return new Request("http://localhost/admin/import", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: new Uint8Array(body),
  });
}

describe("saving an uploaded file to disk", () => {
  it("writes the file, keeps its first bytes and the fields", async () => {
    const data = Buffer.alloc(SAVED_HEAD_BYTES * 3, "x");
    data.write('{"db":', 0);
    const target = path.join(work, "saved");
    const saved = await saveSingleFile(formRequest(data), data.length + 1, target);
    expect(saved).toMatchObject({
      ok: true,
      fileName: "export.json",
      bytes: data.length,
      fields: { intent: "upload" },
    });
    if (!saved.ok) return;
    expect(saved.head.length).toBe(SAVED_HEAD_BYTES);
    expect(saved.head.subarray(0, 6).toString()).toBe('{"db":');
    expect((await readFile(target)).equals(data)).toBe(true);
  });

  it("leaves nothing on disk for a file past the limit or an empty one", async () => {
    const target = path.join(work, "refused");
    expect(await saveSingleFile(formRequest(Buffer.alloc(5000, "x")), 4000, target)).toEqual({
      ok: false,
      reason: "too-large",
    });
    expect(existsSync(target)).toBe(false);
    expect(await saveSingleFile(formRequest(Buffer.alloc(0)), 4000, target)).toEqual({ ok: false, reason: "no-file" });
    expect(existsSync(target)).toBe(false);
  });
});
