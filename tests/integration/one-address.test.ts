import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { seedDemoSite } from "../setup/demo-site.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Issue 49: every public page has one address that answers 200 (the one its canonical tag,
// the sitemap and the site's links give), and its other forms (a trailing slash, a list's
// /page/1) are sent there with a 301.

function canonicalOf(html: string): string | null {
  return /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? null;
}

describe(`one address per page (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    await seedDemoSite(dataDir, database.url, 6);
    // Two posts a page: lists have a second page whose links lead back to the first.
    const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
    const now = new Date().toISOString();
    await db
      .insertInto("siteSettings")
      .values({ key: "postsPerPage", value: "2", createdAt: now, updatedAt: now })
      .execute();
    await close();
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

  const get = (path: string) => fetch(`${server.url}${path}`, { redirect: "manual" });

  /** The public pages as the sitemap lists them, with their unprefixed (x-default) forms. */
  async function publicPages(): Promise<string[]> {
    const xml = await (await get("/sitemap.xml")).text();
    const paths = new Set<string>();
    for (const [, href] of xml.matchAll(/(?:<loc>|href=")(http[^<"]+)/g)) paths.add(new URL(href as string).pathname);
    return [...paths].sort();
  }

  it("answers each public page at one address, and sends its other forms there", async () => {
    const pages = await publicPages();
    expect(pages.length).toBeGreaterThan(20);
    for (const kind of [
      "/",
      "/zh",
      "/en/posts",
      "/about",
      "/zh/contact",
      "/en/tags/",
      "/zh/categories/",
      "/authors/",
    ]) {
      expect(
        pages.some((p) => p === kind || (kind.endsWith("/") && p.startsWith(kind))),
        kind,
      ).toBe(true);
    }
    const wrong: string[] = [];
    for (const path of pages) {
      const res = await get(path);
      const html = await res.text();
      if (res.status !== 200) {
        wrong.push(`${path}: ${res.status}`);
        continue;
      }
      const canonical = canonicalOf(html);
      // An unprefixed post page names its language's copy; every other page names itself.
      const expected = /^\/posts\/detail\//.test(path)
        ? null
        : `${server.url.replace("127.0.0.1", "localhost")}${path}`;
      if (expected && canonical !== expected && canonical !== `${server.url}${path}`) {
        wrong.push(`${path}: canonical ${canonical}`);
      }
      if (path === "/") continue;
      for (const other of [`${path}/`, `${path}//`]) {
        const again = await get(`${other}?from=x`);
        await again.arrayBuffer();
        if (again.status !== 301 || again.headers.get("location") !== `${path}?from=x`) {
          wrong.push(`${other}: ${again.status} ${again.headers.get("location")}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("makes a list's first page the list itself", async () => {
    for (const [from, to] of [
      ["/posts/page/1", "/posts"],
      ["/zh/posts/page/1", "/zh/posts"],
      ["/en/posts/page/1/", "/en/posts"],
      ["/zh/", "/zh"],
    ]) {
      const res = await get(from as string);
      await res.arrayBuffer();
      expect([res.status, res.headers.get("location")], from).toEqual([301, to]);
    }
    const tag = (await publicPages()).find((p) => p.startsWith("/zh/tags/")) as string;
    const first = await get(`${tag}/page/1`);
    await first.arrayBuffer();
    expect([first.status, first.headers.get("location")]).toEqual([301, tag]);
    // The second page's way back is the list's own address, as is the header's "all posts".
    const second = await (await get("/zh/posts/page/2")).text();
    expect(second).toMatch(/<a [^>]*href="\/zh\/posts"[^>]*rel="prev"|<a [^>]*rel="prev"[^>]*href="\/zh\/posts"/);
    expect(second).not.toContain('href="/zh/posts/page/1"');
  });

  it("never redirects to another host", async () => {
    for (const path of ["//evil.example/", "//evil.example//", "/\\evil.example/"]) {
      const res = await get(path);
      await res.arrayBuffer();
      const location = res.headers.get("location");
      if (location !== null) expect(new URL(location, server.url).origin, path).toBe(new URL(server.url).origin);
    }
  });
});
