import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../../app/server/db/db.server.ts";
import { serveRedirects } from "../../app/server/http/redirects.server.ts";
import { getPostImport } from "../../app/server/import/job/report.server.ts";
import { parseWxr } from "../../app/server/import/wordpress/wxr.server.ts";
import { readWxr, WORDPRESS_SOURCE } from "../../app/server/import/wordpress.server.ts";
import { readRedirectCsv } from "../../app/server/redirects/csv.server.ts";
import { createRedirectMap } from "../../app/server/redirects/map.server.ts";
import { importRedirects, redirectsForExport, saveRedirect } from "../../app/server/redirects/redirects.server.ts";
import { createImportBed, type ImportBed } from "../setup/import-bed.ts";
import { importedPost } from "../setup/imported-posts.ts";
import { testDialect } from "../setup/test-db.ts";

// Hardening round 3 (issue 45), finding 1: a WordPress item whose <link> was one of the site's
// own addresses (/unsubscribe, WebFinger, a live post…) became a 301 to the imported post, and
// the visitor's query string (tokens included) went along. No writer of the redirects table
// (importers, the admin form, the CSV import) may start a redirect at a path the site answers,
// and the HTTP step never answers such a row, whoever wrote it.

/** The addresses the probe took over (the live post's is added once it exists). */
const SITE_PATHS = [
  "/unsubscribe",
  "/subscribe/confirm",
  "/.well-known/webfinger",
  "/search",
  "/rss.xml",
  "/en/contact",
  "/notifications/replies/stop",
];

/** A WXR export with one published post per link. */
function wxr(items: Array<{ id: number; link: string }>): string {
  const body = items
    .map(
      ({ id, link }) => `<item><title>Item ${id}</title><link>https://old.example${link}</link>
      <content:encoded><![CDATA[<p>Body ${id}</p>]]></content:encoded>
      <wp:post_id>${id}</wp:post_id><wp:post_date>2021-03-04 09:00:00</wp:post_date>
      <wp:post_date_gmt>2021-03-04 01:00:00</wp:post_date_gmt><wp:post_name>item-${id}</wp:post_name>
      <wp:status>publish</wp:status><wp:post_type>post</wp:post_type></item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>https://old.example</link><wp:wxr_version>1.2</wp:wxr_version>
${body}
</channel></rss>`;
}

let bed: ImportBed;
let livePost: string;
let trashedPost: string;

const importWxr = async (text: string) =>
  bed.runImport({ kind: WORDPRESS_SOURCE, label: "takeover.xml", read: readWxr(await parseWxr([text])) });

const storedFroms = async () => (await redirectsForExport(bed.database.db)).map((r) => r.from);

beforeAll(async () => {
  bed = await createImportBed("takeover", { email: "takeover@example.test" });
  const { db } = bed.database;
  await importWxr(
    wxr([
      { id: 1, link: "/first-post/" },
      { id: 2, link: "/second-post/" },
    ]),
  );
  livePost = (await importedPost(db, WORDPRESS_SOURCE, "1")).post.id;
  trashedPost = (await importedPost(db, WORDPRESS_SOURCE, "2")).post.id;
  await db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", trashedPost).execute();
});

afterAll(async () => {
  await bed?.cleanup();
});

describe(`redirects never take over the site's own addresses (${testDialect()})`, () => {
  it("a WordPress import refuses them and lists each in its report", async () => {
    const { db } = bed.database;
    const links = [...SITE_PATHS, `/posts/detail/${livePost}`];
    const id = await importWxr(wxr([...links.map((link, i) => ({ id: 100 + i, link })), { id: 200, link: "/fine/" }]));
    const job = await getPostImport(db, id);
    expect(job?.status).toBe("done");
    const froms = await storedFroms();
    for (const link of links) expect(froms, link).not.toContain(link.toLowerCase());
    expect(froms).toContain("/fine");
    for (const link of SITE_PATHS) {
      expect(job?.report).toContainEqual(
        expect.objectContaining({ item: expect.stringContaining("Item"), reason: "redirectReserved", detail: link }),
      );
    }
    expect(job?.report).toContainEqual(
      expect.objectContaining({ reason: "redirectLive", detail: `/posts/detail/${livePost}` }),
    );
  });

  it("the admin form and the CSV import refuse them too; a trashed post's address may be redirected", async () => {
    const { db } = bed.database;
    const base = { fromQuery: "", to: "/posts/detail/elsewhere", status: 301 as const, external: false };
    const save = (fromPath: string) => db.transaction().execute((trx) => saveRedirect(trx, { ...base, fromPath }));
    for (const fromPath of SITE_PATHS)
      expect(await save(fromPath), fromPath).toEqual({ ok: false, error: "fromReserved" });
    expect(await save(`/posts/detail/${livePost}`)).toEqual({ ok: false, error: "fromLive" });
    expect(await save(`/zh/posts/detail/${livePost}`)).toEqual({ ok: false, error: "fromLive" });
    expect(await save(`/posts/detail/${trashedPost}`)).toMatchObject({ ok: true });

    const csv = ["from,to", ...SITE_PATHS.map((p) => `${p},/x`), `/posts/detail/${livePost},/x`, "/csv-ok,/x"].join(
      "\n",
    );
    const file = readRedirectCsv(new TextEncoder().encode(csv));
    if (!file.ok) throw new Error("the CSV should read");
    const outcome = await db.transaction().execute((trx) => importRedirects(trx, file.candidates, "import:csv"));
    expect(outcome.added).toBe(1);
    expect(outcome.refused.map((r) => [r.line, r.reason])).toEqual([
      ...SITE_PATHS.map((_, i) => [i + 2, "fromReserved"]),
      [SITE_PATHS.length + 2, "fromLive"],
    ]);
  });

  it("the HTTP step answers no such row already in the table, and carries no token along", async () => {
    const { db } = bed.database;
    const now = nowIso();
    // Rows an earlier version let through.
    for (const fromPath of [...SITE_PATHS, `/posts/detail/${livePost}`]) {
      await db
        .insertInto("redirects")
        .values({ id: `old-${fromPath}`, fromPath, toPath: "/posts/detail/taken", createdAt: now, updatedAt: now })
        .execute();
    }
    const map = createRedirectMap(db, { intervalMs: 60_000 });
    const app = express();
    app.use(serveRedirects(map));
    app.use((req, res) => {
      res.status(200).type("text/plain").send(`routed ${req.originalUrl}`);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((r) => server.once("listening", () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const p of [...SITE_PATHS, `/posts/detail/${livePost}`]) {
        const res = await fetch(`${url}${p}?token=secret`, { redirect: "manual" });
        expect(res.status, p).toBe(200);
        expect(await res.text()).toBe(`routed ${p}?token=secret`);
      }
      // The trashed post's address is free, and its redirect answers.
      const moved = await fetch(`${url}/posts/detail/${trashedPost}`, { redirect: "manual" });
      expect(moved.status).toBe(301);
      // The live post's row starts answering once the post is gone, and stops when it is back.
      await db.updateTable("posts").set({ deletedAt: nowIso() }).where("id", "=", livePost).execute();
      expect((await fetch(`${url}/posts/detail/${livePost}`, { redirect: "manual" })).status).toBe(301);
      await db.updateTable("posts").set({ deletedAt: null }).where("id", "=", livePost).execute();
      expect((await fetch(`${url}/posts/detail/${livePost}`, { redirect: "manual" })).status).toBe(200);
    } finally {
      await new Promise((r) => server.close(r));
      await map.stop();
    }
  });
});
