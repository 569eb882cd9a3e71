// Test entry points (federation-server.ts, storage-fault-server.ts) start the server
// production runs: server.ts as the build bundled it, not the TypeScript source.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SERVER_ENTRY } from "../../scripts/build-if-stale.js";
import type * as Server from "../../server.ts";

export async function builtStart(): Promise<typeof Server.start> {
  const entry = pathToFileURL(path.resolve(import.meta.dirname, "../..", SERVER_ENTRY)).href;
  const mod = (await import(entry)) as typeof Server;
  return mod.start;
}
