import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { seedDemoSite } from "../setup/demo-site.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Issue 49: a reader on /zh/… pages stays in Chinese whatever their browser asks for. Every
// link a page makes to the site's own pages carries /zh (header, footer, menus, pagination,
// tags, categories, authors, the 404 page), a link to the English copy says so with hreflang,
// and visiting a /zh page remembers the language for the bare domain (remembered-locale.test.ts).

/** Paths that are the same in every language: the admin, sign-out, the ad counter, files. */
const LANGUAGE_FREE = /^\/(?:admin(?:\/|$)|logout$|locale$|ads\/|api\/|media\/|assets\/|favicon\.)/;

interface Anchor {
  href: string;
  tag: string;
}

function anchorsOf(html: string): Anchor[] {
  return [...html.matchAll(/<a\b[^>]*>/g)].flatMap((m) => {
    const href = /\shref="([^"]*)"/.exec(m[0])?.[1];
    return href === undefined ? [] : [{ href: href.replaceAll("&amp;", "&"), tag: m[0] }];
  });
}

describe(`links keep the page's language (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;
  let postPath: string;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    ({ postPath } = await seedDemoSite(dataDir, database.url, 6));
    // Two posts a page: the lists have pagination to walk.
    const { db, close } = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 1 });
    const now = new Date().toISOString();
    await db
      .insertInto("siteSettings")
      .values({ key: "postsPerPage", value: "2", createdAt: now, updatedAt: now })
      .execute();
    // A carousel slide that leads to one of the site's pages, as an admin may set one.
    await db
      .insertInto("swapers")
      .values({
        id: "slide00000000000001a",
        titleEn: "About us",
        titleZh: "关于我们",
        imageUrl: "/social.jpg",
        linkUrl: "/about",
        startsAt: null,
        endsAt: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    await close();
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false" });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

  it("writes /zh into every link of every /zh page a reader can reach", async () => {
    const origin = server.url;
    const start = [
      "/zh",
      `/zh${postPath}`,
      "/zh/about",
      "/zh/contact",
      "/zh/privacy",
      "/zh/links",
      "/zh/login",
      "/zh/register",
      "/zh/forgot-password",
      "/zh/subscribe",
      "/zh/search?q=css",
      "/zh/no-such-page",
    ];
    const queue = [...start];
    const seen = new Set(queue);
    const wrong: string[] = [];
    let pages = 0;
    while (queue.length > 0 && pages < 60) {
      const path = queue.shift() as string;
      // A browser whose language is English: only the links can keep the reader in Chinese.
      const res = await fetch(`${origin}${path}`, { headers: { "accept-language": "en-US,en;q=0.9" } });
      const html = await res.text();
      expect(res.headers.get("content-type") ?? "", path).toContain("text/html");
      expect(html, path).toContain('<html lang="zh-CN"');
      pages++;
      for (const { href, tag } of anchorsOf(html)) {
        const url = new URL(href, `${origin}${path}`);
        if (url.origin !== origin || href.startsWith("#")) continue;
        const target = `${url.pathname}${url.search}`;
        if (LANGUAGE_FREE.test(url.pathname)) continue;
        if (/^\/en(?:\/|$)/.test(url.pathname)) {
          // The same page in English is offered on purpose, and says so.
          if (!/\shreflang="en"/i.test(tag)) wrong.push(`${path}: ${tag}`);
          continue;
        }
        if (!/^\/zh(?:\/|$)/.test(url.pathname)) {
          wrong.push(`${path}: ${href}`);
          continue;
        }
        if (!seen.has(target) && !url.pathname.endsWith(".xml")) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    expect(wrong).toEqual([]);
    // The walk saw the carousel's slide on the home page.
    expect(await (await fetch(`${origin}/zh`)).text()).toMatch(/<a href="\/zh\/about" class="block h-full">/);
    // The walk reached the pages the issue names.
    const reached = [...seen].join("\n");
    for (const kind of ["/zh/posts/page/2", "/zh/tags/", "/zh/categories/", "/zh/authors/", "/zh/posts/detail/"]) {
      expect(reached, kind).toContain(kind);
    }
  });
});
