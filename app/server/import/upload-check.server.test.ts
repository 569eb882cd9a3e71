import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipOfZeros } from "../../../tests/setup/zip-bomb.ts";
import {
  inProcessUploadChecker,
  type UploadChecker,
  type UploadCheckHandlers,
  type UploadCheckRequest,
  workerUploadChecker,
} from "./upload-check.server.ts";

// The admin Import upload's check (issue 45, finding 2): unpacking and parsing run on a worker
// thread with a budget on what a zip unpacks to, so an upload neither stalls the readers nor
// fills the disk, and hostile files are refused with a reason the page can show.

const url = new URL("./upload-check-worker.server.ts", import.meta.url);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "inkwell-upload-check-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A Ghost export of `count` posts of about 2 KB of HTML each. */
function ghostExport(count: number): string {
  const posts = Array.from({ length: count }, (_, i) => ({
    id: `p${i}`,
    uuid: `u${i}`,
    title: `Post number ${i}`,
    slug: `post-${i}`,
    html: `<h2>Part ${i}</h2>${"<p>Some <strong>bold</strong> and <em>italic</em> words, a <a href='https://example.com/'>link</a> and more text.</p>".repeat(16)}<ul><li>one</li><li>two</li></ul>`,
    status: "published",
    type: "post",
    published_at: "2024-03-05T10:00:00.000Z",
  }));
  return JSON.stringify({ db: [{ meta: { version: "5.0.0" }, data: { posts, tags: [], posts_tags: [] } }] });
}

/** Handlers that keep what the check hands on. */
function collect(): UploadCheckHandlers & { posts: number; sources: string[] } {
  const out = {
    posts: 0,
    sources: [] as string[],
    onSource: async (s: { unpacked: string }) => {
      out.sources.push(s.unpacked);
    },
    onPosts: async (items: unknown[]) => {
      out.posts += items.length;
    },
  };
  return out;
}

async function saved(name: string, content: string | Buffer): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, content);
  return file;
}

function request(file: string, format: UploadCheckRequest["format"], importsDir: string): UploadCheckRequest {
  return {
    file,
    format,
    importsDir,
    locale: undefined,
    entryMaxBytes: 10 * 1024 * 1024,
    totalMaxBytes: 20 * 1024 * 1024,
  };
}

describe("checking an upload on a worker thread", () => {
  const checker: UploadChecker = workerUploadChecker({ url });

  it("reads a Ghost export, each post checked and serialised where it was read", async () => {
    const file = await saved("export.json", ghostExport(250));
    const got = collect();
    const outcome = await checker.check(request(file, "json", path.join(work, "imports")), got);
    expect(outcome).toEqual({ ok: true, problems: [] });
    expect(got.posts).toBe(250);
    expect(got.sources).toHaveLength(1);
  });

  it("refuses a 10 MB export nested thousands of levels deep as too deep", async () => {
    const depth = 5 * 1024 * 1024;
    const post = { id: "p1", title: "One", slug: "one", html: "<p>one</p>", status: "published", type: "post" };
    const text = `{"db":[{"meta":{},"data":{"posts":[${JSON.stringify(post)}],"tags":${"[".repeat(depth)}${"]".repeat(depth)}}}]}`;
    expect(text.length).toBeGreaterThan(10 * 1024 * 1024);
    const file = await saved("deep.json", text);
    for (const each of [checker, inProcessUploadChecker]) {
      const outcome = await each.check(request(file, "json", path.join(work, "imports")), collect());
      expect(outcome).toMatchObject({ ok: false, refusal: "tooDeep" });
    }
  });

  it("refuses a zip bomb on its first bomb entry, and leaves nothing behind", async () => {
    const entries = Array.from({ length: 120 }, (_, i) => ({ name: `blog/p${i}.md`, bytes: 7.75 * 1024 * 1024 }));
    const file = await saved("bomb.zip", zipOfZeros(entries));
    const importsDir = path.join(work, "bomb-imports");
    const outcome = await checker.check(request(file, "zip", importsDir), collect());
    // Each entry is far past the ratio: the first one stops it.
    expect(outcome).toMatchObject({ ok: false, refusal: "zipRatio" });
    expect(await readdir(importsDir)).toEqual([]);
  });

  it("stops a check past its time budget and refuses the upload as too complex", async () => {
    const file = await saved("slow.json", ghostExport(50));
    const hurried = workerUploadChecker({ url, budgetMs: 1 });
    const outcome = await hurried.check(request(file, "json", path.join(work, "imports")), collect());
    expect(outcome).toMatchObject({ ok: false, refusal: "tooComplex" });
  });

  it("leaves the request thread free while it parses", async () => {
    // Judged by this thread's CPU time, which a busy machine does not stretch (see
    // comment-renderer.server.test.ts): reading an export here costs its whole price on this
    // thread; through the worker, this thread only receives the checked batches.
    const cpu = () => {
      const { user, system } = process.threadCpuUsage();
      return user + system;
    };
    const file = await saved("big.json", ghostExport(800));
    const importsDir = path.join(work, "cpu-imports");
    await inProcessUploadChecker.check(request(file, "json", importsDir), collect());
    let before = cpu();
    await inProcessUploadChecker.check(request(file, "json", importsDir), collect());
    const here = cpu() - before;
    before = cpu();
    const got = collect();
    await checker.check(request(file, "json", importsDir), got);
    const there = cpu() - before;
    expect(got.posts).toBe(800);
    expect(there, `request thread: ${there} µs with the worker, ${here} µs reading itself`).toBeLessThan(here / 4);
  });
});
