import type { EntryContext } from "react-router";
import { isLeanDocument } from "./document.ts";

/**
 * Whether React Router's answer is a lean document: the same decision `root.tsx` makes
 * while rendering (the matched routes' policies, and a user in the root loader's data),
 * made before rendering so the entry can leave out what only the app needs.
 */
export function isLeanEntry(context: EntryContext): boolean {
  const { matches, loaderData } = context.staticHandlerContext;
  const root: unknown = loaderData.root;
  const signedIn = typeof root === "object" && root !== null && "user" in root && Boolean(root.user);
  return isLeanDocument(
    matches.map((match) => match.route.handle),
    signedIn,
    true,
  );
}

/**
 * The entry context a lean document is rendered from (docs/decisions/024-lean-reading-pages.md,
 * "Memory and uncached speed"). `ServerRouter` builds a route object (and the static router a
 * data route) for every route of the manifest on each render, ~150 of them, though a document
 * only renders its matched branch. A lean document sends no manifest to the browser (it renders
 * no `<Scripts/>`), so it is given only the matched routes and their parents: everything
 * `<Links/>`, `<Meta/>` and the matched components read. App pages keep the whole manifest:
 * it goes to the browser. The hydration stream stays: it was started before the entry is
 * called, and the empty boundary React Router renders for it is part of the page.
 */
export function leanEntryContext(context: EntryContext): EntryContext {
  const all = context.manifest.routes;
  const routes: EntryContext["manifest"]["routes"] = {};
  for (const match of context.staticHandlerContext.matches) {
    // Matches hold every route of the branch, root first; parents are added anyway.
    for (let id: string | undefined = match.route.id; id && !routes[id]; id = all[id]?.parentId) {
      const route = all[id];
      if (!route) break;
      routes[id] = route;
    }
  }
  return { ...context, manifest: { ...context.manifest, routes } };
}
