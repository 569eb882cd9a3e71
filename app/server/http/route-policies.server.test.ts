import path from "node:path";
import { matchRoutes, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { policyOf } from "../../lib/route-policy.ts";
import routes from "../../routes.ts";
import { createRouteMatcher, type MatchedRoute, pagePathOf, routeTree } from "./route-policies.server.ts";

// routes.ts is the route table; each route module declares its own policy in its
// `handle`. This walks the table as React Router builds it and reads every module.

interface ConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigEntry[];
}

const appDir = path.resolve(import.meta.dirname, "../..");
type Module = Record<string, unknown>;
const modules = new Map<string, Module>();

async function manifestOf(entries: ConfigEntry[]): Promise<ServerBuild["routes"]> {
  // The root declares nothing: every page must declare its own policy (or its layout must).
  const manifest: ServerBuild["routes"] = { root: { id: "root", path: "", module: {} as never } };
  const walk = async (list: ConfigEntry[], parentId: string) => {
    for (const entry of list) {
      const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
      let module = modules.get(entry.file);
      if (!module) {
        module = (await import(path.join(appDir, entry.file))) as Module;
        modules.set(entry.file, module);
      }
      manifest[id] = {
        id,
        parentId,
        path: entry.path,
        index: entry.index,
        module: module as never,
      };
      if (entry.children) await walk(entry.children, id);
    }
  };
  await walk(entries, "root");
  return manifest;
}

let manifest: ServerBuild["routes"];
let match: (pathname: string) => MatchedRoute;

beforeAll(async () => {
  manifest = await manifestOf(routes as ConfigEntry[]);
  match = createRouteMatcher(routeTree(manifest));
}, 60_000);

/** The route and its layouts, the page last. */
function chain(id: string): Module[] {
  const levels: Module[] = [];
  for (let at = manifest[id]; at; at = at.parentId ? manifest[at.parentId] : undefined) {
    levels.unshift(at.module as unknown as Module);
  }
  return levels;
}

describe("route policies", () => {
  it("are declared by every route, and say what a write changes wherever there is an action", () => {
    const undeclared: string[] = [];
    const writesUnsaid: string[] = [];
    for (const [id, route] of Object.entries(manifest)) {
      if (!route || id === "root") continue;
      const declared = chain(id).map((m) => policyOf(m.handle));
      if (!declared.some((p) => p?.cache)) undeclared.push(id);
      if ("action" in (route.module as object) && !declared.some((p) => p?.writes)) writesUnsaid.push(id);
    }
    expect(undeclared).toEqual([]);
    expect(writesUnsaid).toEqual([]);
  });

  it("make the readers' pages public, with a language prefix and as data requests", () => {
    for (const p of [
      "/",
      "/_root.data",
      "/en",
      "/zh.data",
      "/posts",
      "/en/posts/",
      "/posts/page/2",
      "/zh/posts/page/3.data",
      "/posts/detail/abcdefghjkmnpqrstvwx",
      "/categories/news",
      "/tags/%E4%B8%AD%E6%96%87/page/2",
      "/search",
      "/links",
      "/about",
      "/contact",
      "/rss.xml",
      "/zh/atom.xml",
      "/en/feed.json",
      "/sitemap.xml",
      "/robots.txt",
    ]) {
      expect(match(p).policy.cache, p).toBe("public");
    }
  });

  it("keep everything personal or unknown out of the shared cache", () => {
    for (const p of [
      "/admin",
      "/admin/media",
      "/posts/myPosts",
      "/posts/createPost",
      "/posts/edit/abcdefghjkmnpqrstvwx",
      "/account",
      "/login",
      "/api/files/x",
      "/media/a/b.jpg",
      "/setup",
      "/fr/posts",
      "/solana/transferBatch",
      "/subscribe",
    ]) {
      expect(match(p).policy.cache, p).toBe("none");
    }
  });

  it("say which writes leave readers' pages as they are", () => {
    expect(match("/admin/users").policy.writes).toBe("content");
    expect(match("/posts/detail/abcdefghjkmnpqrstvwx").policy.writes).toBe("content");
    expect(match("/posts/edit/abcdefghjkmnpqrstvwx").policy.writes).toBe("content");
    for (const p of [
      "/login",
      "/en/register",
      "/subscribe",
      "/contact",
      "/locale",
      "/api/uploads",
      "/api/auth/sign-out",
    ]) {
      expect(match(p).policy.writes, p).toBe("none");
    }
  });

  it("give uploads their own body limit and the Solana pages their CSP", () => {
    expect(match("/api/uploads").policy.body).toBe("upload");
    expect(match("/api/posts/preview").policy.body).toBe("default");
    for (const p of ["/solana", "/en/solana/closeToken", "/zh/solana/PhantomWallet", "/SOLANA/transferBatch"]) {
      expect(match(p).policy.csp, p).toBe("solana");
    }
    for (const p of ["/", "/solanaX", "/posts/solana"]) expect(match(p).policy.csp, p).toBe("default");
  });

  it("send the reading pages lean to anonymous readers, and everything else as the app", () => {
    for (const p of [
      "/",
      "/zh",
      "/posts/page/2",
      "/en/posts/detail/abcdefghjkmnpqrstvwx",
      "/categories/news",
      "/tags/x/page/2",
      "/series/x",
      "/authors/x",
      "/search",
      "/about",
      "/contact",
      "/privacy",
      "/links",
      "/subscribe",
      "/nowhere/at/all",
    ]) {
      expect(match(p).policy.js, p).toBe("lean");
    }
    for (const p of [
      "/admin",
      "/admin/media",
      "/posts/createPost",
      "/posts/edit/abcdefghjkmnpqrstvwx",
      "/posts/myPosts",
      "/account",
      "/login",
      "/register",
      "/preview/x",
      "/solana",
      "/en/solana/transferBatch",
    ]) {
      expect(match(p).policy.js, p).toBe("app");
    }
  });

  it("match every path as React Router does with the whole table", () => {
    const tree = routeTree(manifest);
    const fill = (routePath: string) =>
      routePath
        .split("/")
        .map((segment) => (segment.startsWith(":") ? "x1" : segment === "*" ? "rest/of/it" : segment))
        .join("/");
    const paths = new Set(["/", "/en", "/zh/", "/EN", "/Zh/Posts", "/nowhere", "/posts/", "/posts//page/2"]);
    const walk = (routes: typeof tree, parent: string) => {
      for (const route of routes) {
        const full = route.path ? `${parent}/${fill(route.path)}` : parent;
        for (const variant of [full, `${full}/`, full.toUpperCase(), `${full}/extra`, `${full}.data`]) {
          paths.add(variant.startsWith("/") ? variant : `/${variant}`);
        }
        paths.add(`/%7A%68${full.slice(3)}`);
        if (route.children) walk(route.children, full);
      }
    };
    walk(tree, "");
    expect(paths.size).toBeGreaterThan(800);
    const fresh = createRouteMatcher(tree);
    for (const pathname of paths) {
      const path = pagePathOf(pathname);
      const whole = matchRoutes(tree, path) ?? [];
      const leaf = whole[whole.length - 1];
      const got = fresh(pathname);
      expect([pathname, got.routeId, got.params]).toEqual([pathname, leaf?.route.id ?? null, leaf?.params ?? {}]);
    }
  });

  it("match a page's data request to the page, with its params", () => {
    expect(pagePathOf("/posts/page/2.data")).toBe("/posts/page/2");
    const post = match("/zh/posts/detail/abcdefghjkmnpqrstvwx.data");
    expect(post.routeId).toBe("post-detail-zh");
    expect(post.params.id).toBe("abcdefghjkmnpqrstvwx");
    expect(match("/nowhere/at/all").routeId).toBe("routes/pages/not-found");
  });
});
