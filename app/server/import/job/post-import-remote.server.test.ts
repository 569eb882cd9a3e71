import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { png } from "../../../../tests/fixtures/images.ts";
import { createImportBed, type ImportBed } from "../../../../tests/setup/import-bed.ts";
import { importedPost } from "../../../../tests/setup/imported-posts.ts";
import { type TestDatabase, testDialect } from "../../../../tests/setup/test-db.ts";
import { localImageResolver } from "../images.server.ts";
import { MARKDOWN_SOURCE, readMarkdownFolder } from "../markdown-folder.server.ts";
import { planPostImport } from "./dry-run.server.ts";
import { getPostImport } from "./report.server.ts";

// Remote images of an import (`--fetch-remote`, both dialects): fetched through the upload pipeline
// once per address, refused on private addresses and redirects to them, kept as links and listed
// without the option. A local server stands for the remote site (127.0.0.1 taken as public).

const MAX_BYTES = 1024 * 1024;
let bed: ImportBed;
let database: TestDatabase;
let root: string;
let server: Server;
let base: string;
let hits = 0;

const deps = () => {
  const d = bed.deps(MAX_BYTES);
  return { ...d, remote: { ...d.remote, timeoutMs: 3_000, treatAsPublic: ["127.0.0.1"] } };
};

const runImport = async (folder: string, fetchRemote: boolean) =>
  bed.runImport(
    { kind: MARKDOWN_SOURCE, label: folder, rootDir: folder, read: await readMarkdownFolder(folder), fetchRemote },
    { maxChunks: 20, deps: deps() },
  );

const mediaCount = () => bed.count("media");

beforeAll(async () => {
  bed = await createImportBed("remote", { email: "remote@example.test" });
  ({ database, root } = bed);
  const image = await png(40, 30);
  server = createServer((req, res) => {
    hits += 1;
    if (req.url === "/pic.png") res.writeHead(200, { "content-type": "image/png" }).end(image);
    else if (req.url === "/to-private") res.writeHead(302, { location: "http://10.0.0.8/pic.png" }).end();
    else if (req.url === "/page") res.writeHead(200, { "content-type": "text/html" }).end("<p>hi</p>");
    else res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await new Promise<void>((r) => server.once("listening", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const name of ["fetch", "keep"]) {
    await mkdir(path.join(root, name), { recursive: true });
    await writeFile(
      path.join(root, name, `remote-${name}.md`),
      [
        "---",
        `title: Remote ${name}`,
        "date: 2024-01-02",
        `cover: ${base}/pic.png`,
        "---",
        "",
        `![here](${base}/pic.png)`,
        "",
        `![private](http://10.0.0.8/pic.png) ![loopback](http://[::1]/pic.png) ![metadata](http://169.254.169.254/x.png)`,
        "",
        `![hop](${base}/to-private) ![page](${base}/page)`,
        "",
      ].join("\n"),
    );
  }
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await bed?.cleanup();
});

describe(`remote images of an import (${testDialect()})`, () => {
  it("says in the dry run what will happen to remote images, fetching nothing", async () => {
    const read = await readMarkdownFolder(path.join(root, "fetch"));
    const before = hits;
    const plan = await planPostImport(database.db, {
      kind: MARKDOWN_SOURCE,
      read,
      images: localImageResolver(path.join(root, "fetch"), MAX_BYTES),
      fetchRemote: true,
    });
    expect(plan.report.filter((l) => l.reason === "imageRemoteFetch")).toHaveLength(6);
    expect(hits).toBe(before);
  });

  it("fetches public images into the media library and refuses private targets", async () => {
    const id = await runImport(path.join(root, "fetch"), true);
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", imported: 1, imagesStored: 1, imagesMissing: 5 });
    const reasons = job?.report.filter((l) => l.outcome === "imageMissing").map((l) => l.reason);
    expect(reasons?.sort()).toEqual(["remotePrivate", "remotePrivate", "remotePrivate", "remotePrivate", "remoteType"]);
    const post = await importedPost(database.db, MARKDOWN_SOURCE, "remote-fetch");
    const [media] = await database.db.selectFrom("media").select("id").execute();
    // The body image and the cover are the one stored picture.
    expect(post.translations[0]?.bodyMarkdown).toContain(`![here](/media/${media?.id}/`);
    expect(post.post.coverImageUrl).toContain(`/media/${media?.id}/`);
    // The refused ones stay as they were written.
    expect(post.translations[0]?.bodyMarkdown).toContain("http://10.0.0.8/pic.png");
    expect(await mediaCount()).toBe(1);
  });

  it("keeps remote images as links and lists them without the option", async () => {
    const before = hits;
    const id = await runImport(path.join(root, "keep"), false);
    const job = await getPostImport(database.db, id);
    expect(job).toMatchObject({ status: "done", imported: 1, imagesStored: 0, imagesMissing: 0 });
    expect(job?.report.filter((l) => l.reason === "imageRemoteKept").map((l) => l.detail)).toContain(`${base}/pic.png`);
    expect(hits).toBe(before);
    const post = await importedPost(database.db, MARKDOWN_SOURCE, "remote-keep");
    expect(post.translations[0]?.bodyMarkdown).toContain(`![here](${base}/pic.png)`);
    expect(await mediaCount()).toBe(1);
  });
});
