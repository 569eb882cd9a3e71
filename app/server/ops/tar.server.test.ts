import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { ArchiveError, createTarWriter, isSafeEntryName, readTar } from "./tar.server.ts";

async function build(entries: Array<[string, Buffer]>): Promise<Buffer> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (c: Buffer) => parts.push(c));
  const tar = createTarWriter(out);
  for (const [name, data] of entries) await tar.add(name, data.length, data);
  await tar.finish();
  return Buffer.concat(parts);
}

async function read(archive: Buffer, chunkSize = 333): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < archive.length; i += chunkSize) chunks.push(archive.subarray(i, i + chunkSize));
  const out: Record<string, string> = {};
  await readTar(Readable.from(chunks), (entry) => {
    const parts: Buffer[] = [];
    return {
      write: (c) => {
        parts.push(c);
      },
      end: () => {
        out[entry.name] = Buffer.concat(parts).toString("utf8");
      },
    };
  });
  return out;
}

describe("tar", () => {
  it("round-trips files of any size, long names included, whatever the chunking", async () => {
    const long = `files/${"a".repeat(120)}/${"b".repeat(120)}/${"c".repeat(60)}.webp`;
    const entries: Array<[string, Buffer]> = [
      ["empty", Buffer.alloc(0)],
      ["one/block.txt", Buffer.alloc(512, "x")],
      [long, Buffer.from("long name")],
      ["files/ab/中文.txt", Buffer.from("你好")],
    ];
    const archive = await build(entries);
    const want = Object.fromEntries(entries.map(([n, d]) => [n, d.toString("utf8")]));
    expect(await read(archive)).toEqual(want);
    expect(await read(archive, 1)).toEqual(want);
  });

  it("refuses a damaged header, a missing end and unsafe names", async () => {
    const archive = await build([["a.txt", Buffer.from("hello")]]);
    const bad = Buffer.from(archive);
    bad[10] = 0x41; // inside the first header's name
    await expect(read(bad)).rejects.toThrow(/header checksum/);
    await expect(read(archive.subarray(0, 1024))).rejects.toThrow(ArchiveError);
    for (const name of ["../x", "/etc/passwd", "a/../../b", "a\\b", "a//b", ""]) {
      expect(isSafeEntryName(name), name).toBe(false);
    }
  });

  it("checks that a file is exactly the size it announced", async () => {
    const tar = createTarWriter(new PassThrough());
    await expect(tar.add("x", 10, Buffer.alloc(5))).rejects.toThrow(/shrank/);
    await expect(tar.add("y", 1, Buffer.alloc(5))).rejects.toThrow(/grew/);
  });
});
