import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "./server-process.ts";

/** React Router's client manifest from the production build: the entry and every route's chunks. */
export interface ClientManifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, { id: string; module: string; imports?: string[]; css?: string[] }>;
}

export const clientAssets = path.join(repoRoot, "build", "client", "assets");

const PREFIX = "window.__reactRouterManifest=";

/**
 * Reads the manifest, found by what it says rather than by its name: a route module can be
 * called `manifest` too (the web manifest's, `manifest-<hash>.js`), and which of the two a
 * directory listing gives first depends on the hashes.
 */
export function clientManifest(): ClientManifest {
  for (const file of readdirSync(clientAssets)) {
    if (!/^manifest-[\w-]+\.js$/.test(file)) continue;
    const text = readFileSync(path.join(clientAssets, file), "utf8");
    if (text.startsWith(PREFIX)) return JSON.parse(text.slice(PREFIX.length).replace(/;\s*$/, "")) as ClientManifest;
  }
  throw new Error("no React Router client manifest in the build");
}
