// The relative imports between our own modules, read from the source text: what the
// PostgreSQL pass of `npm test` uses to find the test files that reach a database
// (database-test-files.ts) and what the layer check walks (layers.ts). Package imports
// are left out: neither question is about them. No path aliases exist in the tree, so
// every import of our own code starts with "./" or "../".
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Where an import that names no file on disk points. */
export const UNRESOLVED = "<unresolved>";

export interface Import {
  /** The absolute path of the imported file, or UNRESOLVED. */
  to: string;
  /** `import type` / `export type`: erased when compiled, so it loads nothing at run time. */
  typeOnly: boolean;
}

// `import … from "x"`, `export … from "x"`, `import "x"`, `import("x")`. The bindings part
// allows what an import list holds (names, braces, commas, `* as`, inline `type`), across
// lines. A `type` right after the keyword makes the whole statement type-only; an inline
// `{ type A }` does not (verbatimModuleSyntax keeps the import, so the module still loads).
const STATEMENT = /\b(?:import|export)\s+(type\s+)?(?:[\w$*{},\s]+?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/g;
const DYNAMIC = /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;
const SOURCE = /\.(?:ts|tsx|js|mjs)$/;

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

export function resolveImport(from: string, spec: string): string {
  // Vite's `?url` and `?raw` name the same file.
  const base = path.resolve(path.dirname(from), spec.replace(/\?.*$/, ""));
  const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find(isFile);
  return found ?? UNRESOLVED;
}

/** The relative imports in one module's source. */
export function importsOf(file: string, source: string): Import[] {
  const found: Import[] = [];
  for (const m of source.matchAll(STATEMENT)) {
    found.push({ to: resolveImport(file, m[2] as string), typeOnly: m[1] !== undefined });
  }
  for (const m of source.matchAll(DYNAMIC)) found.push({ to: resolveImport(file, m[1] as string), typeOnly: false });
  return found;
}

/** Every module reachable from the given files (absolute paths), with its relative imports. */
export function importGraph(files: string[]): Map<string, Import[]> {
  const graph = new Map<string, Import[]>();
  const queue = [...files];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (graph.has(file) || file === UNRESOLVED) continue;
    // JSON, CSS and the like import nothing of ours.
    const imports = SOURCE.test(file) ? importsOf(file, readFileSync(file, "utf8")) : [];
    graph.set(file, imports);
    queue.push(...imports.map((i) => i.to));
  }
  return graph;
}
