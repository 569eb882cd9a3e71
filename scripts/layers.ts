// The layer check (issue 44), run by `npm test` through layers.test.ts, or alone with
// `node scripts/layers.ts`. It reads every module's relative imports (import-graph.ts)
// and reports:
//   - an import that goes up a layer: app/lib → app/server, app/components → app/routes;
//   - a client-side module that imports server code (a `*.server.ts` file or app/server/);
//   - every import circle, in the whole tree;
//   - a feature of app/server calling another that its README.md does not list on its
//     `Calls:` line, a feature folder without that line, and a listed feature it never calls
//     (so the READMEs stay true);
//   - a source file over 600 lines (tests too) that does not say at its top, on a
//     `@long-file <reason>` line, why it is one file (a data file, generated code).
// Type-only imports count for the layers and the circles: a type that points upwards is
// still a dependency upwards, and a circle of types is a circle a reader has to untangle.
// They do not count for server code in client modules: `import type` is erased, so nothing
// of the server reaches the browser (components type their props by what loaders return).
// Dynamic `import()` counts everywhere.
// Test files may import any layer (a test of app/lib can open a database), so the rules
// skip them; their circles still count.
import { existsSync, globSync, readFileSync } from "node:fs";
import path from "node:path";
import { type Import, importGraph, UNRESOLVED } from "./import-graph.ts";

const SOURCES = "{app,scripts,tests,db,bench,build-tools}/**/*.{ts,tsx,js,mjs}";
const TOP_LEVEL = "*.{ts,js}";
const TEST = /\.test\.tsx?$/;
const SERVER_CODE = /(^app\/server\/|\.server\.tsx?$)/;

// The server bundle loads these; React Router strips loaders and actions from route modules
// before the client sees them, and its build refuses a `.server` module left in a client chunk.
const SERVER_SIDE = [/^app\/server\//, /^app\/routes\//, /^app\/(root|routes)\.tsx?$/, /^app\/entry\.server\.tsx$/];

function isClientSide(file: string): boolean {
  return file.startsWith("app/") && !SERVER_CODE.test(file) && !SERVER_SIDE.some((re) => re.test(file));
}

interface Rule {
  name: string;
  forbids: (from: string, to: Import) => boolean;
}

const RULES: Rule[] = [
  {
    name: "app/lib must not import app/server",
    forbids: (from, to) => from.startsWith("app/lib/") && to.to.startsWith("app/server/"),
  },
  {
    name: "app/components must not import app/routes",
    forbids: (from, to) => from.startsWith("app/components/") && to.to.startsWith("app/routes/"),
  },
  {
    name: "client-side code must not import server code",
    forbids: (from, to) => isClientSide(from) && !to.typeOnly && SERVER_CODE.test(to.to),
  },
];

/** Each feature folder of app/server (its first folder) and the features its README says it calls. */
export type FeatureCalls = Map<string, Set<string> | null>;

const FEATURE = /^app\/server\/([^/]+)\//;

/** The `Calls: a, b, c` line of each app/server/<feature>/README.md (`Calls: nothing` for none). */
export function readFeatureCalls(root: string): FeatureCalls {
  const calls: FeatureCalls = new Map();
  for (const dir of globSync("app/server/*/", { cwd: root })) {
    const name = path.basename(dir);
    const readme = path.join(root, "app/server", name, "README.md");
    const line = existsSync(readme) ? /^Calls:(.*)$/m.exec(readFileSync(readme, "utf8")) : null;
    calls.set(
      name,
      line
        ? new Set(
            (line[1] as string)
              .split(",")
              .map((s) => s.trim().replace(/`/g, ""))
              .filter((s) => s !== "" && s !== "nothing"),
          )
        : null,
    );
  }
  return calls;
}

function featureViolations(graph: Map<string, Import[]>, features: FeatureCalls): Violation[] {
  const found: Violation[] = [];
  const used = new Map<string, Set<string>>();
  for (const [from, imports] of graph) {
    const own = FEATURE.exec(from)?.[1];
    if (own === undefined || TEST.test(from) || !features.has(own)) continue;
    for (const i of imports) {
      const other = FEATURE.exec(i.to)?.[1];
      if (other === undefined || other === own) continue;
      used.set(own, (used.get(own) ?? new Set()).add(other));
      const allowed = features.get(own);
      if (allowed && !allowed.has(other))
        found.push({ rule: `app/server/${own} calls ${other}, not listed in its README's Calls`, from, to: i.to });
    }
  }
  for (const [name, allowed] of features) {
    const readme = `app/server/${name}/README.md`;
    if (allowed === null) {
      found.push({ rule: "a feature folder needs a README.md with a Calls: line", from: readme, to: readme });
      continue;
    }
    for (const listed of allowed)
      if (!used.get(name)?.has(listed))
        found.push({
          rule: `app/server/${name} lists ${listed} in Calls but never calls it`,
          from: readme,
          to: readme,
        });
  }
  return found;
}

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

export interface LayerReport {
  violations: Violation[];
  /** Each circle as a path of files that starts and ends with the same file. */
  circles: string[][];
  /** Files over MAX_LINES without a `@long-file` reason at their top, with their length. */
  long?: Array<{ file: string; lines: number }>;
}

/** The longest a source file may be before it must say why it is not split. */
export const MAX_LINES = 600;

/** Files over MAX_LINES whose first lines give no `@long-file` reason. */
export function longFiles(root: string, files: string[]): Array<{ file: string; lines: number }> {
  const found: Array<{ file: string; lines: number }> = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), "utf8");
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    if (lines <= MAX_LINES) continue;
    const top = text.split("\n", 15).join("\n");
    if (!/@long-file\s+\S/.test(top)) found.push({ file, lines });
  }
  return found;
}

/** Strongly connected components (Tarjan), iteratively: the graph is deep enough to overflow recursion. */
function components(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++] as string;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
          onStack.delete(member);
          component.push(member);
          if (member === frame.node) break;
        }
        found.push(component);
      }
    }
  }
  return found;
}

/** The shortest path from `start` back to itself inside one component. */
function loopThrough(start: string, members: Set<string>, graph: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    for (const to of graph.get(node) ?? []) {
      if (to === start) {
        const loop = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) loop.push(at);
        return [start, ...loop.slice(1).reverse(), start];
      }
      if (members.has(to) && !cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** Checks an import graph whose paths are relative to the root, with "/" between folders. */
export function checkGraph(graph: Map<string, Import[]>, features: FeatureCalls = new Map()): LayerReport {
  const violations: Violation[] = featureViolations(graph, features);
  const edges = new Map<string, string[]>();
  for (const [from, imports] of graph) {
    edges.set(from, [...new Set(imports.map((i) => i.to))]);
    if (TEST.test(from)) continue;
    for (const rule of RULES) {
      const broken = new Set(imports.filter((i) => rule.forbids(from, i)).map((i) => i.to));
      for (const to of broken) violations.push({ rule: rule.name, from, to });
    }
  }
  const circles = components(edges)
    .filter((c) => c.length > 1 || (edges.get(c[0] as string) ?? []).includes(c[0] as string))
    .map((c) => {
      const sorted = [...c].sort();
      return loopThrough(sorted[0] as string, new Set(c), edges);
    });
  return { violations, circles };
}

/** Reads the tree under `root` and checks it. */
export function checkLayers(root: string): LayerReport {
  const names = [...globSync(SOURCES, { cwd: root }), ...globSync(TOP_LEVEL, { cwd: root })].filter(
    (f) => !f.includes("node_modules"),
  );
  const files = names.map((f) => path.join(root, f));
  const relative = (f: string) => path.relative(root, f).split(path.sep).join("/");
  const graph = new Map<string, Import[]>();
  for (const [file, imports] of importGraph(files)) {
    // An import that names no file is the type checker's to report (or a string that only looks like one).
    const known = imports.filter((i) => i.to !== UNRESOLVED);
    graph.set(
      relative(file),
      known.map((i) => ({ to: relative(i.to), typeOnly: i.typeOnly })),
    );
  }
  return { ...checkGraph(graph, readFeatureCalls(root)), long: longFiles(root, names) };
}

export function formatReport(report: LayerReport): string[] {
  return [
    ...report.violations.map((v) =>
      v.from === v.to ? `${v.rule}: ${v.from}` : `${v.rule}: ${v.from} imports ${v.to}`,
    ),
    ...report.circles.map((c) => `import circle: ${c.join(" → ")}`),
    ...(report.long ?? []).map(
      (l) => `over ${MAX_LINES} lines without a @long-file reason at its top: ${l.file} (${l.lines} lines)`,
    ),
  ];
}

if (import.meta.main) {
  const lines = formatReport(checkLayers(path.resolve(import.meta.dirname, "..")));
  for (const line of lines) console.log(line);
  if (lines.length > 0) process.exitCode = 1;
  else
    console.log(
      "layers: no upward imports, no server code in client modules, no import circles, no long file without a reason",
    );
}
