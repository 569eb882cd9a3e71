import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";
import { filesUnder, signedInAccount } from "../setup/uploads.ts";
import { zipOfZeros } from "../setup/zip-bomb.ts";

// Hardening round 3 (issue 45), finding 2: the admin Import upload. A 1.4 MB zip of 120
// highly compressed files wrote ~930 MB under the data directory before it was refused, and
// a 10 MB deeply nested Ghost export held the server for seconds. Each is refused now with a
// message in the admin's language, a 4xx, and nothing left behind: no files, no import.

const GHOST_FIXTURE = path.resolve(import.meta.dirname, "../fixtures/ghost/export.json");
const WXR_FIXTURE = path.resolve(import.meta.dirname, "../fixtures/wordpress/export.xml");

/** The import form as the browser sends it: intent, language and the file. */
function importForm(fileName: string, data: Buffer): { body: Uint8Array<ArrayBuffer>; contentType: string } {
  const boundary = `----inkwell${randomBytes(8).toString("hex")}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const body = Buffer.concat([
    field("intent", "upload"),
    field("lang", "auto"),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return {
    body: new Uint8Array(body) as Uint8Array<ArrayBuffer>,
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe(`the admin Import upload's budgets (${testDialect()})`, () => {
  let site: Site;
  let cookie = "";

  beforeAll(async () => {
    site = await startSite({ LOG_LEVEL: "fatal", RATE_LIMIT_MULTIPLIER: "1000" });
    cookie = (await signedInAccount(site.server.url, site.db, "importer", { admin: true })).cookie;
  });
  afterAll(async () => {
    await site?.stop();
  });

  async function upload(fileName: string, data: Buffer, locale: "en" | "zh" = "en") {
    const { body, contentType } = importForm(fileName, data);
    const res = await fetch(`${site.server.url}/admin/import`, {
      method: "POST",
      headers: { origin: site.server.url, "content-type": contentType, cookie: `${cookie}; locale=${locale}` },
      body,
    });
    return { status: res.status, html: await res.text() };
  }

  const leftBehind = async () => ({
    files: filesUnder(path.join(site.dataDir, "imports")),
    imports: (await site.db.selectFrom("postImports").select("id").execute()).length,
    items: (await site.db.selectFrom("postImportItems").select("seq").execute()).length,
  });

  it("refuses a zip bomb, says why in English and Chinese, and keeps nothing", async () => {
    const bomb = zipOfZeros(
      Array.from({ length: 120 }, (_, i) => ({ name: `blog/p${i}.md`, bytes: 7.75 * 1024 * 1024 })),
    );
    expect(bomb.length).toBeLessThan(1.5 * 1024 * 1024);
    const en = await upload("bomb.zip", bomb);
    expect(en.status).toBe(400);
    expect(en.html).toContain("more than 100 times its compressed size");
    expect(await leftBehind()).toEqual({ files: [], imports: 0, items: 0 });
    const zh = await upload("bomb.zip", bomb, "zh");
    expect(zh.status).toBe(400);
    expect(zh.html).toContain("zip 炸弹");
    expect(await leftBehind()).toEqual({ files: [], imports: 0, items: 0 });
  });

  it("refuses a 10 MB export nested millions of levels deep with a 4xx that says so", async () => {
    const depth = 5_000_000;
    const post = { id: "p1", title: "One", slug: "one", html: "<p>one</p>", status: "published", type: "post" };
    const deep = Buffer.from(
      `{"db":[{"meta":{},"data":{"posts":[${JSON.stringify(post)}],"tags":${"[".repeat(depth)}${"]".repeat(depth)}}}]}`,
    );
    const answer = await upload("deep.json", deep);
    expect(answer.status).toBe(400);
    expect(answer.html).toContain("nested too deeply to read");
    expect(answer.html).not.toMatch(/Internal server error|服务器内部错误/);
    expect(await leftBehind()).toEqual({ files: [], imports: 0, items: 0 });
  });

  it("still checks an ordinary zip and WordPress export through the worker, and refuses what is neither", async () => {
    const enc = (text: string) => new TextEncoder().encode(text);
    const zip = Buffer.from(
      zipSync({
        "blog/posts/moving.en.md": enc("---\ntitle: Moving in\ndate: 2020-05-06\n---\n\nHello.\n"),
        "blog/posts/moving.zh.md": enc("---\ntitle: 搬家\ndate: 2020-05-06\n---\n\n你好。\n"),
        "blog/posts/second.md": enc("---\ntitle: Second\n---\n\n![gone](gone.png)\n"),
      }),
    );
    const fromZip = await upload("blog.zip", zip);
    expect(fromZip.status).toBe(200);
    expect(fromZip.html).toContain("2 posts found. Nothing has been written yet.");
    expect(fromZip.html).toMatch(/no such file in the zip.{0,80}gone\.png/);
    const fromWxr = await upload("export.xml", readFileSync(WXR_FIXTURE));
    expect(fromWxr.status).toBe(200);
    expect(fromWxr.html).toContain("Nothing has been written yet.");
    for (const [name, data] of [
      ["x.zip", Buffer.from("PK\u0003\u0004 no zip after all")],
      ["x.json", Buffer.from('{"posts": []}')],
      ["x.xml", Buffer.from("<rss><channel></channel>")],
    ] as const) {
      expect((await upload(name, data)).status, name).toBe(400);
    }
    // Staged: the zip's folder and the export's empty image folder; no upload file is left.
    expect(readdirSync(path.join(site.dataDir, "imports")).filter((n) => n.startsWith("upload-"))).toEqual([]);
    await site.db.deleteFrom("postImportItems").execute();
    await site.db.deleteFrom("postImports").execute();
    rmSync(path.join(site.dataDir, "imports"), { recursive: true, force: true });
  });

  it("still checks an ordinary export and stages it, the upload file gone", async () => {
    const answer = await upload("export.json", readFileSync(GHOST_FIXTURE));
    expect(answer.status).toBe(200);
    expect(answer.html).toContain("What the import would do");
    const staged = await site.db.selectFrom("postImports").select(["status", "total", "rootDir"]).execute();
    expect(staged).toMatchObject([{ status: "staged", total: 6 }]);
    // Only the export's (empty) image folder is kept, for the import; the upload itself is removed.
    expect(filesUnder(path.join(site.dataDir, "imports"))).toEqual([]);
  });
});
