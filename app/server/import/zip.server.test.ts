import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readMarkdownFolder, SourceRefused } from "./markdown-folder.server.ts";
import { pruneUnpacked, safeEntryPath, unpackZip } from "./zip.server.ts";

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

  it("tidies unpacked zips no unfinished import reads, and keeps the rest", async () => {
    const dir = path.join(work, "tidy");
    for (const name of ["zip-aaa/blog", "zip-bbb", "other", "ghost-ddd", "wordpress-eee", "wordpress-fff"])
      await mkdir(path.join(dir, name), { recursive: true });
    await writeFile(path.join(dir, "upload-ccc.zip"), "x");
    expect(await pruneUnpacked(dir, [path.join(dir, "zip-aaa/blog"), path.join(dir, "wordpress-fff")], 0)).toBe(4);
    expect((await readdir(dir)).sort()).toEqual(["other", "wordpress-fff", "zip-aaa"]);
    // Too young to remove: a dry run may still be reading it.
    expect(await pruneUnpacked(dir, [], 60_000)).toBe(0);
  });

  it("accepts plain relative names only", () => {
    expect(safeEntryPath("a/b.md")).toBe("a/b.md");
    expect(safeEntryPath("a/")).toBe("a");
    for (const bad of ["../a", "a/../../b", "/etc/passwd", "C:/x", "a\\..\\b", "a//b", "./a", "a\u0000b"])
      expect(safeEntryPath(bad), bad).toBeNull();
  });
});
