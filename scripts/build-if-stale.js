// @ts-check
// Builds the app when the build is missing or older than its sources. The stamp is
// a hash of every input that changes the build, so `npm start` after a `git pull`
// rebuilds and a second start does not. Plain JavaScript (types in JSDoc, checked by
// `npm run typecheck`): `npm start` runs it in the server's own process, which then
// never loads Node's TypeScript stripper (docs/decisions/024-lean-reading-pages.md).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const STAMP = path.join(root, "build", ".source-hash");
const INPUTS = [
  "app",
  "build-tools",
  "db",
  "locales",
  "public",
  // Bundled as the serving entry (SERVER_ENTRY).
  "server.ts",
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

/**
 * The production server's entry, relative to the repository root: server.ts bundled
 * by the build (vite.config.ts). `npm start`, the benches and the tests run it.
 */
export const SERVER_ENTRY = "build/server/serve.js";

/**
 * @param {string} p
 * @param {string[]} out
 */
function walk(p, out) {
  if (!existsSync(p)) return;
  const st = statSync(p);
  if (st.isFile()) {
    out.push(p);
    return;
  }
  for (const name of readdirSync(p).sort()) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    walk(path.join(p, name), out);
  }
}

/** @returns {string} */
export function sourceHash() {
  /** @type {string[]} */
  const files = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
  const hash = createHash("sha256");
  for (const file of files) {
    // Tests do not change the build.
    if (/\.test\.tsx?$/.test(file)) continue;
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** @returns {boolean} */
export function buildIsFresh() {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) return false;
  if (!existsSync(path.join(root, SERVER_ENTRY))) return false;
  if (!existsSync(STAMP)) return false;
  return readFileSync(STAMP, "utf8").trim() === sourceHash();
}

/** @param {{ quiet?: boolean }} [opts] */
export function ensureBuild(opts = {}) {
  if (buildIsFresh()) {
    if (!opts.quiet) console.log("inkwell: build is up to date");
    return;
  }
  console.log("inkwell: building (the build is missing or older than the sources)…");
  const hash = sourceHash();
  const bin = path.join(root, "node_modules", ".bin", "react-router");
  const result = spawnSync(bin, ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) {
    console.error("inkwell: the build failed");
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, `${hash}\n`);
}

if (import.meta.main) ensureBuild();
