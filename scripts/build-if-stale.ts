// Builds the app when the build is missing or older than its sources. The stamp is
// a hash of every input that changes the build, so `npm start` after a `git pull`
// rebuilds and a second start does not.
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
  "vite.config.ts",
  "react-router.config.ts",
  "package-lock.json",
];

function walk(p: string, out: string[]): void {
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

export function sourceHash(): string {
  const files: string[] = [];
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

export function buildIsFresh(): boolean {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) return false;
  if (!existsSync(STAMP)) return false;
  return readFileSync(STAMP, "utf8").trim() === sourceHash();
}

export function ensureBuild(opts: { quiet?: boolean } = {}): void {
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
