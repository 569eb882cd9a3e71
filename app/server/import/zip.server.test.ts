import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipOfZeros } from "../../../tests/setup/zip-bomb.ts";
import { readMarkdownFolder, SourceRefused } from "./markdown-folder.server.ts";
import { pruneUnpacked, safeEntryPath, unpackZip, ZipRefused } from "./zip.server.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../../tests/fixtures/markdown-blog");
let work: string;

/** The fixture blog's files inside one top folder, as exports usually zip them. */
async function fixtureEntries(dir = FIXTURE, prefix = "blog/"): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) Object.assign(out, await fixtureEntries(full, `${prefix}${e.name}/`));
    else out[`${prefix}${e.name}`] = await readFile(full);
  }
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), "inkwell-zip-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("unpacking a zip for an import", () => {
  it("unpacks into a folder named by its content, reads like the folder, and refuses escaping names", async () => {
    const entries = await fixtureEntries();
    entries["blog/../escape.md"] = new TextEncoder().encode("---\ntitle: out\n---\n");
    // A bomb: 64 MiB of zeros compress to a few KiB; it is cut off just past the entry limit.
    entries["blog/bomb.png"] = new Uint8Array(64 * 1024 * 1024);
    const zipFile = path.join(work, "blog.zip");
    await writeFile(zipFile, zipSync(entries, { level: 9 }));
    expect((await stat(zipFile)).size).toBeLessThan(1024 * 1024);

    const first = await unpackZip(zipFile, path.join(work, "imports"), { entryMaxBytes: 2 * 1024 * 1024 });
    expect(path.basename(first.root)).toBe("blog");
    expect(first.problems).toEqual([{ item: "blog/../escape.md", outcome: "failed", reason: "zipEntryUnsafe" }]);
    expect((await stat(path.join(first.root, "bomb.png"))).size).toBe(2 * 1024 * 1024 + 1);
    await expect(stat(path.join(work, "imports", "escape.md"))).rejects.toThrow();
    const fromZip = await readMarkdownFolder(first.root);
    const fromFolder = await readMarkdownFolder(FIXTURE);
    expect(fromZip.posts.map((p) => p.sourceId).sort()).toEqual(fromFolder.posts.map((p) => p.sourceId).sort());

    // The same zip again: the same folder, not unpacked twice.
    const again = await unpackZip(zipFile, path.join(work, "imports"), { entryMaxBytes: 2 * 1024 * 1024 });
    expect(again.dir).toBe(first.dir);
  });

  it("refuses a zip over its total or entry count, and a file that is no zip", async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i < 20; i++) many[`p${i}.md`] = new Uint8Array(1000);
    const zipFile = path.join(work, "many.zip");
    await writeFile(zipFile, zipSync(many));
    await expect(unpackZip(zipFile, work, { entryMaxBytes: 10_000, maxEntries: 10 })).rejects.toThrow(SourceRefused);
    await expect(unpackZip(zipFile, work, { entryMaxBytes: 10_000, totalMaxBytes: 5000 })).rejects.toThrow(
      /more than 5000 bytes/,
    );
    const notZip = path.join(work, "not.zip");
    await writeFile(notZip, "just text, no zip at all");
    const read = await unpackZip(notZip, work, { entryMaxBytes: 10_000 }).catch((e: unknown) => e);
    // Nothing recognisable inside: either refused, or an empty folder with nothing to import.
    if (!(read instanceof SourceRefused))
      expect((await readMarkdownFolder((read as { root: string }).root)).files).toBe(0);
  });

  it("refuses a zip bomb once it would write past the budget, having written at most the budget, and leaves nothing", async () => {
    // The probe's bomb: 120 files of 7.75 MB of zeros, 1 MB of zip, ~930 MB unpacked.
    const zipFile = path.join(work, "bomb.zip");
    const entries = Array.from({ length: 120 }, (_, i) => ({ name: `blog/p${i}.md`, bytes: 7.75 * 1024 * 1024 }));
    await writeFile(zipFile, zipOfZeros(entries));
    expect((await stat(zipFile)).size).toBeLessThan(1.5 * 1024 * 1024);
    const workDir = path.join(work, "bomb");
    const budget = 20 * 1024 * 1024;
    // No ratio limit here: the total budget alone stops it.
    const refused = await unpackZip(zipFile, workDir, {
      entryMaxBytes: 10 * 1024 * 1024,
      totalMaxBytes: budget,
      ratioMax: 10_000,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ZipRefused);
    expect((refused as ZipRefused).reason).toBe("size");
    expect((refused as ZipRefused).written).toBeLessThanOrEqual(budget);
    expect((refused as ZipRefused).written).toBeGreaterThan(budget - 8 * 1024 * 1024);
    expect(await readdir(workDir)).toEqual([]);
  });

  it("refuses an entry that unpacks to far more than it is stored as, before the total budget is near", async () => {
    const zipFile = path.join(work, "ratio.zip");
    await writeFile(zipFile, zipOfZeros([{ name: "blog/huge.md", bytes: 50 * 1024 * 1024 }]));
    const workDir = path.join(work, "ratio");
    const refused = await unpackZip(zipFile, workDir, { entryMaxBytes: 100 * 1024 * 1024 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ZipRefused);
    expect((refused as ZipRefused).reason).toBe("ratio");
    // The ratio is checked as it is written: at most 100 times what the entry is stored as, not its 50 MB.
    expect((refused as ZipRefused).written).toBeLessThanOrEqual(100 * (await stat(zipFile)).size);
    expect((refused as ZipRefused).written).toBeLessThan(10 * 1024 * 1024);
    expect(await readdir(workDir)).toEqual([]);
    // A small file that compresses as well is no bomb.
    const small = path.join(work, "small.zip");
    await writeFile(small, zipOfZeros([{ name: "blank.md", bytes: 512 * 1024 }]));
    const unpacked = await unpackZip(small, workDir, { entryMaxBytes: 1024 * 1024 });
    expect((await stat(path.join(unpacked.root, "blank.md"))).size).toBe(512 * 1024);
  });

  it("lists an entry whose data is broken and unpacks the rest", async () => {
    const good = zipOfZeros([
      { name: "a.md", bytes: 1000 },
      { name: "b.md", bytes: 2000 },
    ]);
    // Flip a byte of b.md's stored data (it follows its 30-byte header and name): its checksum fails.
    const corrupt = Buffer.from(good);
    const bStart = good.indexOf(Buffer.from("b.md")) + 4;
    corrupt[bStart + 1] = (corrupt[bStart + 1] ?? 0) ^ 0xff;
    const zipFile = path.join(work, "corrupt.zip");
    await writeFile(zipFile, corrupt);
    const out = await unpackZip(zipFile, path.join(work, "corrupt"), { entryMaxBytes: 10_000 });
    expect(out.problems).toMatchObject([{ item: "b.md", outcome: "failed", reason: "zipEntryBroken" }]);
    expect((await readdir(out.root)).filter((n) => !n.startsWith("."))).toEqual(["a.md"]);
  });

  it("tidies unpacked zips no unfinished import reads, and keeps the rest", async () => {
    const dir = path.join(work, "tidy");
    for (const name of ["zip-aaa/blog", "zip-bbb", "other", "ghost-ddd", "wordpress-eee", "wordpress-fff"])
      await mkdir(path.join(dir, name), { recursive: true });
    await writeFile(path.join(dir, "upload-ccc.zip"), "x");
    // The clock is held: a file's time and Date.now() come from different clocks (one coarse,
    // one rounded down to the millisecond), so "now" could read earlier than a folder just made.
    const created = (await stat(path.join(dir, "zip-bbb"))).mtimeMs;
    const inUse = [path.join(dir, "zip-aaa/blog"), path.join(dir, "wordpress-fff")];
    // Too young to remove: a dry run may still be reading it.
    expect(await pruneUnpacked(dir, inUse, 60_000, created + 59_000)).toBe(0);
    expect(await pruneUnpacked(dir, inUse, 60_000, created + 61_000)).toBe(4);
    expect((await readdir(dir)).sort()).toEqual(["other", "wordpress-fff", "zip-aaa"]);
  });

  it("accepts plain relative names only", () => {
    expect(safeEntryPath("a/b.md")).toBe("a/b.md");
    expect(safeEntryPath("a/")).toBe("a");
    for (const bad of ["../a", "a/../../b", "/etc/passwd", "C:/x", "a\\..\\b", "a//b", "./a", "a\u0000b"])
      expect(safeEntryPath(bad), bad).toBeNull();
  });
});
