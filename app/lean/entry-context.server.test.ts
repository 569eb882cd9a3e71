import type { EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import { routePolicy } from "../lib/route-policy.ts";
import { isLeanEntry, leanEntryContext } from "./entry-context.server.ts";

const lean = routePolicy({ cache: "public", js: "lean" });

/** An entry context with the parts these functions read; the rest is carried along. */
function entry(user: unknown, pageHandle: unknown = lean): EntryContext {
  const route = (id: string, parentId?: string) => ({ id, parentId, path: id, hasLoader: true });
  const routes = {
    root: route("root"),
    "routes/blog": route("routes/blog", "root"),
    "routes/blog/post": route("routes/blog/post", "routes/blog"),
    "routes/admin": route("routes/admin", "root"),
    "routes/admin/posts": route("routes/admin/posts", "routes/admin"),
  };
  const stream = new ReadableStream();
  return {
    manifest: { routes, version: "v1", url: "/m.js", entry: { module: "/e.js", imports: [] } },
    routeModules: {},
    serverHandoffStream: stream,
    staticHandlerContext: {
      // The post page matched below its layout only: the layout is added as its parent.
      matches: [
        { route: { id: "root", handle: undefined } },
        { route: { id: "routes/blog/post", handle: pageHandle } },
      ],
      loaderData: { root: { user } },
    },
  } as unknown as EntryContext;
}

describe("the lean document's entry context", () => {
  it("is used for an anonymous reader of a lean route only", () => {
    expect(isLeanEntry(entry(null))).toBe(true);
    expect(isLeanEntry(entry({ id: "u1" }))).toBe(false);
    expect(isLeanEntry(entry(null, routePolicy({ cache: "none" })))).toBe(false);
    const noRootData = entry(null);
    noRootData.staticHandlerContext.loaderData = {};
    expect(isLeanEntry(noRootData)).toBe(true);
  });

  it("keeps only the matched branch of the manifest and everything else as it was", () => {
    const context = entry(null);
    const trimmed = leanEntryContext(context);
    expect(Object.keys(trimmed.manifest.routes).sort()).toEqual(["root", "routes/blog", "routes/blog/post"]);
    expect(trimmed.manifest.routes.root).toBe(context.manifest.routes.root);
    expect(trimmed.manifest.version).toBe("v1");
    expect(trimmed.serverHandoffStream).toBe(context.serverHandoffStream);
    expect(trimmed.staticHandlerContext).toBe(context.staticHandlerContext);
    // The original is left whole (the app's render and error renders use it).
    expect(Object.keys(context.manifest.routes)).toHaveLength(5);
  });
});
