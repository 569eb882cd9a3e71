import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_PAGE_CACHE_CONTROL } from "../../app/server/cache/page-cache.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Issue 49: opening a /zh/… (or /en/…) page remembers its language, so a bare address typed in
// afterwards answers in it. The page sets the `locale` cookie from its head script: the
// server's response carries no Set-Cookie and stays a shared, cached public page
// (docs/decisions/003-locale-order.md, addendum).

/** The head script that writes the cookie, as the served page carries it. */
function memoryScriptOf(html: string): string {
  const script = [...html.matchAll(/<script nonce="[^"]*">([^<]*)<\/script>/g)]
    .map((m) => m[1] ?? "")
    .find((s) => s.includes("document.cookie="));
  if (!script) throw new Error("the page has no script that remembers its language");
  return script;
}

/** Runs the page's head scripts' cookie part in a stand-in browser: the cookie jar it leaves. */
function visit(url: string, html: string, jar: string): string {
  let cookie = jar;
  const document = {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      cookie = value.split(";", 1)[0] ?? "";
    },
    documentElement: { classList: { add() {}, toggle() {} } },
  };
  new Function("location", "document", memoryScriptOf(html))(new URL(url), document);
  return cookie;
}

const langOf = (html: string) => /<html lang="([^"]+)"/.exec(html)?.[1];

describe(`a visit to a language's page remembers it (${testDialect()})`, () => {
  let server: ServerProcess;
  let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

  beforeAll(async () => {
    const dataDir = tempDataDir();
    database = await createServerDatabaseUrl(dataDir);
    server = await startServer({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false" });
  });

  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.cleanup();
  });

  async function get(path: string, cookie: string) {
    const res = await fetch(`${server.url}${path}`, {
      headers: { "accept-language": "en-US,en;q=0.9", ...(cookie ? { cookie } : {}) },
    });
    return { res, html: await res.text() };
  }

  it("sets the cookie on a /zh visit, so the bare address answers in Chinese; an /en visit sets it back", async () => {
    // A browser that asks for English gets English at the bare address.
    expect(langOf((await get("/about", "")).html)).toBe("en-US");

    const zh = await get("/zh/about", "");
    expect(zh.res.status).toBe(200);
    let jar = visit(`${server.url}/zh/about`, zh.html, "");
    expect(jar).toBe("locale=zh");
    const bare = await get("/about", jar);
    expect(langOf(bare.html)).toBe("zh-CN");
    expect(bare.html).toContain("关于");

    const en = await get("/en/contact", jar);
    jar = visit(`${server.url}/en/contact`, en.html, jar);
    expect(jar).toBe("locale=en");
    expect(langOf((await get("/about", jar)).html)).toBe("en-US");
    // The bare page remembers nothing: it has no language of its own.
    expect(visit(`${server.url}/about`, bare.html, "locale=en")).toBe("locale=en");
  });

  it("keeps the language pages shared and cached: no Set-Cookie, the public Cache-Control", async () => {
    for (const cookie of ["", "locale=en", "locale=zh"]) {
      for (let n = 0; n < 2; n++) {
        const { res } = await get("/zh/about", cookie);
        expect(res.headers.getSetCookie(), cookie).toEqual([]);
        expect(res.headers.get("cache-control"), cookie).toBe(PUBLIC_PAGE_CACHE_CONTROL);
        if (n === 1) expect(res.headers.get("x-render-cache"), cookie).toBe("hit");
      }
    }
  });
});
