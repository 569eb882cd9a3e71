// Loaded into a server under test with `--import` (NODE_OPTIONS): appends the name of every
// package under node_modules the process loads, once, to the file named by RECORD_PACKAGES.
// Module hooks see ES imports, require() and dynamic import() alike, so a package loaded on
// first use shows up when it is used. Used by tests/integration/lazy-modules.test.ts.
import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";

const out = process.env.RECORD_PACKAGES;
const seen = new Set<string>();

/** The package a resolved URL belongs to (`@scope/name` or `name`), or null outside node_modules. */
export function packageOf(url: string): string | null {
  const at = url.lastIndexOf("/node_modules/");
  if (at < 0) return null;
  const [first = "", second = ""] = url.slice(at + "/node_modules/".length).split("/");
  return first.startsWith("@") ? `${first}/${second}` : first;
}

if (out) {
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const resolved = nextResolve(specifier, context);
      const name = packageOf(resolved.url);
      if (name && !seen.has(name)) {
        seen.add(name);
        appendFileSync(out, `${name}\n`);
      }
      return resolved;
    },
  });
}
