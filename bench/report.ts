// The shape of bench/results/latest.json, and its Markdown table.
import type { UploadStallResult } from "./import-upload.ts";
import type { LoadResult } from "./load.ts";

export const RUN_KINDS = ["static", "cache", "nocache"] as const;
export type RunKind = (typeof RUN_KINDS)[number];

export const RUN_LABELS: Record<RunKind, string> = {
  static: "static ceiling",
  cache: "render cache on",
  nocache: "render cache off",
};

export interface PageResult extends LoadResult {
  path: string;
  /** The first request for this page after boot, in milliseconds. */
  coldMs: number;
  /** Status and size of that first answer. */
  status: number;
  bytes: number;
  /**
   * Latency with one connection (a lone reader's wait, no queueing behind other
   * requests), measured after the loaded run for a third of its duration.
   */
  single: { p50Ms: number; p99Ms: number; requests: number };
}

export interface RunResult {
  kind: RunKind;
  /** Milliseconds from spawning the process to the first 200 of /healthz. */
  bootMs: number;
  /** The first request after boot (the first page in PAGES), in milliseconds. */
  coldFirstRequestMs: number;
  peakRssMiB: number;
  pages: Record<string, PageResult>;
}

export interface BenchResult {
  version: 1;
  startedAt: string;
  finishedAt: string;
  options: {
    posts: number;
    duration: number;
    warmup: number;
    connections: number;
    runs: RunKind[];
    search: string;
    /** Whether the load carried a browser's User-Agent (counted as reads) or none. */
    agent?: "browser" | "none";
  };
  machine: {
    node: string;
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    /** 1-minute load average when the bench started and when it finished. */
    loadStart: number;
    loadEnd: number;
  };
  /** How long seeding took (0 when --data named a directory seeded earlier). */
  seed: { posts: number; ms: number; reused: boolean };
  /** Page name → request path, in the order measured. */
  pages: Record<string, string>;
  runs: Partial<Record<RunKind, RunResult>>;
  /** /healthz while an admin uploads a Ghost export and the server checks it (absent with --upload-mb 0). */
  importUpload?: UploadStallResult;
}

const num = (n: number | undefined, digits = 0): string =>
  n === undefined || !Number.isFinite(n)
    ? "–"
    : n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

const ms = (n: number | undefined): string => (n === undefined ? "–" : n < 10 ? num(n, 2) : num(n, 1));

/** The cache-on (or, without it, cache-off) throughput of a page as a share of the static ceiling. */
export function ratioToStatic(result: BenchResult, page: string, kind: "cache" | "nocache"): number | undefined {
  const ceiling = result.runs.static?.pages[page]?.requestsPerSec;
  const measured = result.runs[kind]?.pages[page]?.requestsPerSec;
  if (!ceiling || measured === undefined) return undefined;
  return measured / ceiling;
}

const pct = (ratio: number | undefined): string => (ratio === undefined ? "–" : `${num(ratio * 100, 1)} %`);

/** The Markdown tables: pages (throughput and latency per run), then boot, cold request and memory per run. */
export function markdownTables(result: BenchResult): string {
  const lines: string[] = [];
  lines.push(
    "| page | static req/s | cache on req/s | p50 ms | p99 ms | ratio to static | cache off req/s | p50 ms | p99 ms | ratio to static | errors / non-2xx |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const [name, path] of Object.entries(result.pages)) {
    const s = result.runs.static?.pages[name];
    const on = result.runs.cache?.pages[name];
    const off = result.runs.nocache?.pages[name];
    const measured = [s, on, off].filter((p): p is PageResult => p !== undefined);
    // autocannon counts a timeout as an error too.
    const errors = measured.reduce((sum, p) => sum + p.errors, 0);
    const non2xx = measured.reduce((sum, p) => sum + p.non2xx, 0);
    lines.push(
      `| ${name} \`${path}\` | ${num(s?.requestsPerSec)} | ${num(on?.requestsPerSec)} | ${ms(on?.p50Ms)} | ${ms(on?.p99Ms)} | ${pct(ratioToStatic(result, name, "cache"))} | ${num(off?.requestsPerSec)} | ${ms(off?.p50Ms)} | ${ms(off?.p99Ms)} | ${pct(ratioToStatic(result, name, "nocache"))} | ${errors} / ${non2xx} |`,
    );
  }
  lines.push(
    "",
    "| page | static p50 ms, 1 connection | cache on p50 ms, 1 connection | p99 ms | cache off p50 ms, 1 connection | p99 ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const name of Object.keys(result.pages)) {
    const [s, on, off] = RUN_KINDS.map((kind) => result.runs[kind]?.pages[name]?.single);
    lines.push(
      `| ${name} | ${ms(s?.p50Ms)} | ${ms(on?.p50Ms)} | ${ms(on?.p99Ms)} | ${ms(off?.p50Ms)} | ${ms(off?.p99Ms)} |`,
    );
  }
  lines.push("", "| run | boot ms | cold first request ms | peak RSS MiB |", "| --- | ---: | ---: | ---: |");
  for (const kind of RUN_KINDS) {
    const run = result.runs[kind];
    if (!run) continue;
    lines.push(
      `| ${RUN_LABELS[kind]} | ${num(run.bootMs)} | ${ms(run.coldFirstRequestMs)} | ${num(run.peakRssMiB, 1)} |`,
    );
  }
  const upload = result.importUpload;
  if (upload) {
    lines.push(
      "",
      "| /healthz while an export is uploaded and checked | export MB | posts | upload ms | requests | p50 ms | p99 ms | max ms | p99 target ms |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      `| ${upload.healthz.p99Ms <= upload.targetMs ? "within the target" : "OVER the target"} | ${num(upload.exportBytes / 1e6, 1)} | ${num(upload.posts)} | ${num(upload.uploadMs)} | ${num(upload.healthz.requests)} | ${ms(upload.healthz.p50Ms)} | ${ms(upload.healthz.p99Ms)} | ${ms(upload.healthz.maxMs)} | ${num(upload.targetMs)} |`,
    );
  }
  return lines.join("\n");
}

/** latest.md: what was measured, on what, under what load, and the tables. */
export function markdownReport(result: BenchResult): string {
  const { options: o, machine: m } = result;
  return [
    `# Inkwell bench, ${result.startedAt.slice(0, 16).replace("T", " ")} UTC`,
    "",
    `${o.posts} demo posts (${result.seed.reused ? "seeded earlier" : `seeded in ${num(result.seed.ms / 1000, 1)} s`}); ${o.duration} s per page after ${o.warmup} s of warm-up, ` +
      `${o.connections} connections${o.agent === "browser" ? " with a browser's User-Agent (counted as reads)" : ", no User-Agent (not counted as reads)"}; ` +
      `runs: ${o.runs.map((k) => RUN_LABELS[k]).join(", ")}.`,
    `Node ${m.node}, ${m.cpus} × ${m.cpuModel}, ${num(m.memoryGiB)} GiB; load average ${num(m.loadStart, 2)} at the start, ${num(m.loadEnd, 2)} at the end.`,
    "",
    markdownTables(result),
    "",
  ].join("\n");
}
