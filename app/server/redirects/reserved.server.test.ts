import { readdirSync } from "node:fs";
import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { normalizeFrom, type RedirectKey } from "../../lib/redirects.ts";
import routes from "../../routes.ts";
import { classifyFrom, isReservedFrom, liveRefOf, reservedTreeOf } from "./reserved.server.ts";

const keyOf = (raw: string): RedirectKey => {
  const from = normalizeFrom(raw);
  if (!from.ok) throw new Error(`not a path: ${raw}`);
  return from;
};

/** Every route's full path with its parameters filled in ("a1b2…" for each), and its id. */
function routePaths(entries: readonly RouteConfigEntry[], parent = ""): Array<{ id: string; path: string }> {
  const out: Array<{ id: string; path: string }> = [];
  for (const entry of entries) {
    const own = entry.path ? `${parent}/${entry.path}` : parent;
    if (entry.children) out.push(...routePaths(entry.children, own));
    const filled = own.replace(/:[^/]+/g, "somevalue").replace(/\*$/, "anything/below");
    out.push({ id: entry.id ?? entry.file, path: filled || "/" });
  }
  return out;
}

describe("the paths a redirect may never start from", () => {
  it("holds every path the route table answers, in every language form", () => {
    const all = routePaths(routes).filter((r) => r.path !== "/anything/below");
    expect(all.length).toBeGreaterThan(150);
    for (const { id, path: p } of all) {
      const found = classifyFrom(reservedTreeOf(routes), keyOf(p));
      expect(found.kind, `${id} ${p}`).not.toBe("free");
      // Under /en and /zh too, whether or not the table lists that form.
      if (!/^\/(en|zh)(\/|$)/.test(p)) {
        for (const lang of ["en", "zh"])
          expect(classifyFrom(reservedTreeOf(routes), keyOf(`/${lang}${p}`)).kind, `${lang} ${p}`).not.toBe("free");
      }
    }
  });

  it("reserves the addresses the probe took over, and what is served before routing", () => {
    for (const p of [
      "/unsubscribe",
      "/subscribe/confirm",
      "/subscribe/confirm/",
      "/.well-known/webfinger",
      "/.well-known/acme-challenge/abc",
      "/search",
      "/Search/",
      "/rss.xml",
      "/en/rss.xml",
      "/zh/atom.xml",
      "/feed.json",
      "/zh/feed.json",
      "/en/contact",
      "/contact",
      "/notifications/replies/stop",
      "/zh/notifications/replies/stop",
      "/preview/sometoken",
      "/sitemap.xml",
      "/sitemaps/posts-1.xml",
      "/robots.txt",
      "/ap/actors/x/inbox",
      "/nodeinfo/2.1",
      "/healthz",
      "/readyz",
      "/builds/latest.json",
      "/assets/app.js",
      "/media/x/y.png",
      "/favicon.svg",
      "/social.jpg",
      "/admin",
      "/Admin/redirects",
      "/api/auth/sign-in",
      "/api/anything",
      "/login",
      "/en/login",
      "/posts",
      "/posts/page/2",
      "/solana/closetoken",
      "/about",
      "/links",
      "/",
      "/en",
      "/zh/",
    ]) {
      expect(isReservedFrom(keyOf(p)), p).toBe(true);
    }
    // A query on a reserved path is no way round it (a token carried along is what the probe took).
    expect(isReservedFrom(keyOf("/unsubscribe?token=abc"))).toBe(true);
  });

  it("keeps every file the client build serves at the top level", () => {
    for (const name of readdirSync(path.resolve(import.meta.dirname, "../../../public"))) {
      expect(isReservedFrom(keyOf(`/${name}`)), name).toBe(true);
    }
  });

  it("leaves old addresses alone: an old blog's paths, and WordPress's ?p= links on the home page", () => {
    for (const p of [
      "/2019/05/hello-world",
      "/category/news",
      "/tag/tea",
      "/author/jane",
      "/?p=123",
      "/en?page_id=4",
    ]) {
      expect(classifyFrom(reservedTreeOf(routes), keyOf(p)), p).toEqual({ kind: "free" });
    }
    // A one-segment address no route names is an owner's page's (decision 035): taken only
    // while such a page exists, like a post's address.
    for (const p of ["/feed", "/administrator", "/index.php", "/contact-us", "/searching"]) {
      expect(classifyFrom(reservedTreeOf(routes), keyOf(p)), p).toEqual({
        kind: "live",
        ref: { kind: "page", value: p.slice(1) },
      });
    }
    expect(liveRefOf(keyOf("/zh/now"))).toEqual({ kind: "page", value: "now" });
    expect(isReservedFrom(keyOf("/about"))).toBe(true);
    expect(isReservedFrom(keyOf("/en/posts"))).toBe(true);
  });

  it("names the post, term, series or author at a content address, which is taken while it exists", () => {
    expect(liveRefOf(keyOf("/posts/detail/abc123"))).toEqual({ kind: "post", value: "abc123" });
    expect(liveRefOf(keyOf("/zh/posts/detail/abc123"))).toEqual({ kind: "post", value: "abc123" });
    expect(liveRefOf(keyOf("/categories/Tea/page/2"))).toEqual({ kind: "category", value: "tea" });
    expect(liveRefOf(keyOf("/en/tags/oolong"))).toEqual({ kind: "tag", value: "oolong" });
    expect(liveRefOf(keyOf("/series/brewing"))).toEqual({ kind: "series", value: "brewing" });
    expect(liveRefOf(keyOf("/authors/jane/rss.xml"))).toEqual({ kind: "author", value: "jane" });
    // A fixed page beside a content one stays reserved: /posts/myPosts is no post id.
    expect(isReservedFrom(keyOf("/posts/mypposts"))).toBe(false);
    expect(isReservedFrom(keyOf("/posts/myposts"))).toBe(true);
    expect(isReservedFrom(keyOf("/posts/edit/abc123"))).toBe(true);
  });

  it("reserves a route added to the table later without anyone listing it", () => {
    const table: RouteConfigEntry[] = [...routes, { id: "newsletter-archive", path: "letters/:issue", file: "x.tsx" }];
    expect(classifyFrom(reservedTreeOf(table), keyOf("/letters/12")).kind).toBe("reserved");
    expect(classifyFrom(reservedTreeOf(table), keyOf("/zh/letters/12")).kind).toBe("reserved");
  });
});
