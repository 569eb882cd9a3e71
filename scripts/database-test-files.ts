// Prints the test files whose imports reach a database, directly or through a server
// they start: the ones worth running a second time on PostgreSQL (.ci/run). A file is
// listed when a module it loads, followed through relative imports, is the one that opens
// a database (app/server/db/db.server.ts, the only module that loads a driver) or one of
// the test helpers that open a database or start a server. Type-only imports load
// nothing and are not followed: a file that names `DB` in a signature but builds XML runs
// the same twice. Leaving a file out would hide a dialect bug, so an import that cannot be
// resolved counts as reaching a database.
import { globSync } from "node:fs";
import path from "node:path";
import { importGraph, UNRESOLVED } from "./import-graph.ts";

const root = path.resolve(import.meta.dirname, "..");
const DATABASE_MODULES = [
  /^app\/server\/db\/db\.server\.ts$/,
  /^tests\/setup\/(test-db|server-process|site|site-fixture)\.ts$/,
];

export function databaseTestFiles(patterns: string[]): string[] {
  const files = patterns.flatMap((p) => globSync(p, { cwd: root })).map((f) => path.join(root, f));
  const graph = new Map(
    [...importGraph(files)].map(([file, imports]) => [file, imports.filter((i) => !i.typeOnly).map((i) => i.to)]),
  );
  const reaching = new Set<string>([UNRESOLVED]);
  for (const file of graph.keys()) {
    if (DATABASE_MODULES.some((re) => re.test(path.relative(root, file)))) reaching.add(file);
  }
  // Grow the set until no module imports one already in it.
  for (let grew = true; grew; ) {
    grew = false;
    for (const [file, imports] of graph) {
      if (!reaching.has(file) && imports.some((i) => reaching.has(i))) {
        reaching.add(file);
        grew = true;
      }
    }
  }
  return [...new Set(files)]
    .filter((f) => reaching.has(f))
    .map((f) => path.relative(root, f))
    .sort();
}

if (import.meta.main) {
  for (const file of databaseTestFiles(process.argv.slice(2))) console.log(file);
}
