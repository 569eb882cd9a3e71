// @ts-check
// `npm start`: build when needed, then serve (migrations run as the server starts).
// Plain JavaScript that starts the bundled server (build/server/serve.js, built from
// server.ts): a process that loads no TypeScript never loads Node's TypeScript
// stripper, about 17 MiB resident (docs/decisions/024-lean-reading-pages.md).
// `--dev` (or NODE_ENV=development) runs server.ts itself with Vite's middleware.
import { ensureBuild, SERVER_ENTRY } from "./build-if-stale.js";

const dev = process.argv.includes("--dev") || process.env.NODE_ENV === "development";
if (!dev) ensureBuild();
const entry = new URL(dev ? "../server.ts" : `../${SERVER_ENTRY}`, import.meta.url).href;
/** @type {typeof import("../server.ts")} */
const { start } = await import(entry);
await start();
