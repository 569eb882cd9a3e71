// `npm test`: every check, phase by phase, and each phase's time at the end.
//
//   lint → (build → unit and integration: SQLite ‖ (PostgreSQL → cluster)) ‖ typecheck → browser suite
//
// With TEST_POSTGRES_URL set (.ci/run sets it when PostgreSQL answers), the test files
// whose imports reach a database also run on PostgreSQL, and the cluster test after them.
// Phases side by side (‖) are those whose work is mostly waiting: measured on two cores
// (cpuacct, 2026-11-29), the SQLite pass kept one core busy on average and the PostgreSQL
// pass one, so together they fill the machine instead of leaving a core idle for six
// minutes. Their output is prefixed with the phase's name. The browser suite runs alone:
// beside the PostgreSQL pass on a busy machine it starved both (six PostgreSQL files ran
// past their ceilings, and the pass took 1,390 s beside a 1,189 s browser suite).
import { spawn } from "node:child_process";
import path from "node:path";
import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { ensureBuild } from "./build-if-stale.js";
import { databaseTestFiles } from "./database-test-files.ts";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

/** Test files run on PostgreSQL: those reaching a database, less the dialect-neutral ones. */
const DATABASE_TEST_GLOBS = [
  "app/**/*.test.{ts,tsx}",
  "scripts/**/*.test.ts",
  "db/**/*.test.ts",
  "tests/integration/**/*.test.ts",
  "tests/security/**/*.test.ts",
  "tests/faults/**/*.test.ts",
];
// These test what a request or a file does whatever the database (attack catalogues on
// HTTP and HTML, cache headers, compression, page weight, the mail timing, disk and S3
// faults, the upload checker's worker): they ran on SQLite and would spend minutes on
// PostgreSQL proving nothing about it. The auth, account-abuse, OAuth, input-limit and fuzz
// files stay: their rows, rate limits and odd strings (NUL, huge values) are where the
// dialects differ; so does lazy-modules, which checks the other dialect's driver stays
// unloaded.
const DIALECT_NEUTRAL = new RegExp(
  "^(tests/(security/(attacks|admin-access|cache-rules|mail-timing)|faults/storage|" +
    "integration/(http-caching|page-weight))\\.test\\.ts" +
    "|app/server/import/upload-check\\.server\\.test\\.ts)$",
);

export function postgresTestFiles(): string[] {
  return databaseTestFiles(DATABASE_TEST_GLOBS).filter((f) => !DIALECT_NEUTRAL.test(f));
}

interface Phase {
  name: string;
  seconds: number;
  ok: boolean;
}

const phases: Phase[] = [];

/**
 * Runs a command to its end, its output going to the terminal; with `label`, each line
 * of it prefixed `[label] `, for a phase that runs beside another.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, label?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: label ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    if (label) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ] as const) {
        from?.pipe(prefixLines(`[${label}] `)).pipe(to);
      }
    }
    child.on("error", (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

/** A stream that writes each whole line it is given with `prefix` in front. */
export function prefixLines(prefix: string): Transform {
  // A character may arrive split between two chunks: the decoder holds its first bytes.
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (pending + decoder.write(chunk)).split("\n");
      pending = lines.pop() ?? "";
      done(null, lines.map((line) => `${prefix}${line}\n`).join(""));
    },
    flush(done) {
      const rest = pending + decoder.end();
      done(null, rest ? `${prefix}${rest}\n` : "");
    },
  });
}

async function phase(name: string, work: () => Promise<boolean>): Promise<boolean> {
  console.log(`\n== ${name}`);
  const started = performance.now();
  let ok = false;
  try {
    ok = await work();
  } catch (error) {
    console.error(error);
  }
  phases.push({ name, seconds: (performance.now() - started) / 1000, ok });
  console.log(`== ${name}: ${ok ? "passed" : "FAILED"}`);
  return ok;
}

const startedAt = performance.now();

function printPhases(): void {
  console.log(
    "\n== phase times (the type check runs beside the build and the two database passes, which run side by side)",
  );
  for (const p of phases) {
    console.log(`${p.ok ? "  ok  " : "FAILED"} ${p.seconds.toFixed(0).padStart(5)} s  ${p.name}`);
  }
  console.log(`       ${((performance.now() - startedAt) / 1000).toFixed(0).padStart(5)} s  in all`);
}

async function postgresPass(url: string, label: string): Promise<boolean> {
  const files = postgresTestFiles();
  // The finder follows relative imports; far fewer files means it broke, not that the
  // database code shrank.
  if (files.length <= 50) {
    console.error(`only ${files.length} test files reach a database: the finder is broken`);
    return false;
  }
  console.log(`[${label}] ${files.length} test files reach a database`);
  return run(bin("vitest"), ["run", ...files], { TEST_DATABASE_URL: url }, label);
}

/** Runs the given phases at once; true when every one passed (each runs to its end). */
async function together(...lanes: (() => Promise<boolean>)[]): Promise<boolean> {
  const results = await Promise.all(lanes.map((lane) => lane()));
  return results.every(Boolean);
}

async function main(): Promise<number> {
  const postgres = process.env.TEST_POSTGRES_URL;
  // TEST_DATABASE_URL unset: the SQLite pass, whatever the caller's environment says.
  const sqlite = (label?: string) => run(bin("vitest"), ["run"], { TEST_DATABASE_URL: "" }, label);
  try {
    if (!(await phase("lint", () => run(bin("biome"), ["check", "."])))) return 1;
    // The type check (one core, for about a minute) runs on beside the build and then the
    // unit passes, which need only the build: waiting for it left a core idle after the build.
    const typecheck = phase("typecheck", () => run("npm", ["run", "--silent", "typecheck"], {}, "typecheck"));
    const built = await phase("build", async () => {
      ensureBuild({ quiet: true });
      return true;
    });
    if (!built) {
      await typecheck;
      return 1;
    }
    const unitsOk = postgres
      ? await together(
          () => phase("unit and integration (SQLite)", () => sqlite("sqlite")),
          async () =>
            (await phase("unit and integration (PostgreSQL)", () => postgresPass(postgres, "postgres"))) &&
            phase("cluster test (two instances, PostgreSQL, S3, a proxy)", () =>
              run(
                bin("vitest"),
                ["run", "--config", "vitest.cluster.config.ts"],
                { TEST_DATABASE_URL: postgres },
                "cluster",
              ),
            ),
        )
      : await phase("unit and integration (SQLite)", () => sqlite());
    if (!(await typecheck) || !unitsOk) return 1;
    return (await phase("browser suite", () => run("node", ["scripts/e2e.ts"], { TEST_DATABASE_URL: "" }))) ? 0 : 1;
  } finally {
    printPhases();
  }
}

if (import.meta.main) process.exitCode = await main();
