// Restores lockfile entries for other platforms' optional binaries.
//
// The npm registry reachable on our build machines lacks some platform packages
// (e.g. @biomejs/cli-darwin-arm64 at the version we use), so `npm install` here
// leaves them out of package-lock.json, and `npm ci` then refuses the lockfile as
// out of sync. Every such package is an optional dependency named after its
// platform; this adds its entry with the `os`/`cpu`/`libc` npm uses to skip it,
// as a lockfile written against the full registry would have.
// Run after every `npm install`: `node scripts/lockfile-platforms.ts`.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

interface LockEntry {
  version?: string;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Lockfile {
  packages: Record<string, LockEntry>;
  [key: string]: unknown;
}

const OS = ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "netbsd", "sunos", "aix"];
const CPU = ["arm64", "x64", "arm", "ia32", "ppc64", "s390x", "riscv64", "loong64", "wasm32"];

export function platformOf(name: string): Pick<LockEntry, "os" | "cpu" | "libc"> | null {
  const tokens = (name.split("/").pop() ?? "").split("-");
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  if (!cpu) return null;
  if (!os && cpu !== "wasm32") return null;
  const entry: Pick<LockEntry, "os" | "cpu" | "libc"> = { cpu: [cpu] };
  if (os) entry.os = [os];
  if (os === "linux" && tokens.includes("musl")) entry.libc = ["musl"];
  if (os === "linux" && tokens.includes("gnu")) entry.libc = ["glibc"];
  return entry;
}

/** Entries missing for optional dependencies: name → exact version. */
export function missingOptional(lock: Lockfile): Map<string, string> {
  const missing = new Map<string, string>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [dep, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      // Resolution looks in the package's own node_modules, then upwards.
      let found = false;
      let base = location;
      for (;;) {
        const candidate = `${base ? `${base}/` : ""}node_modules/${dep}`;
        if (lock.packages[candidate]) {
          found = true;
          break;
        }
        if (!base) break;
        const idx = base.lastIndexOf("/node_modules/");
        base = idx >= 0 ? base.slice(0, idx) : "";
      }
      if (!found) missing.set(dep, spec);
    }
  }
  return missing;
}

export function restore(lock: Lockfile): string[] {
  const added: string[] = [];
  for (const [name, spec] of missingOptional(lock)) {
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) {
      throw new Error(`cannot restore ${name}@${spec}: not a platform binary with an exact version`);
    }
    lock.packages[`node_modules/${name}`] = { version: spec, optional: true, ...platform };
    added.push(`${name}@${spec}`);
  }
  lock.packages = Object.fromEntries(
    Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
  );
  return added;
}

if (import.meta.main) {
  const file = path.resolve(import.meta.dirname, "..", "package-lock.json");
  const lock = JSON.parse(readFileSync(file, "utf8")) as Lockfile;
  const added = restore(lock);
  writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `restored ${added.length} platform entries: ${added.join(", ")}` : "lockfile complete");
}
