// `npm test`: every check, phase by phase, and each phase's time at the end.
//
//   lint → typecheck → build → unit and integration (SQLite) → browser suite
//
// With TEST_POSTGRES_URL set (.ci/run sets it when PostgreSQL answers), the test files
// whose imports reach a database then run again on PostgreSQL, and the cluster test last.
// The PostgreSQL pass once ran beside the browser suite to fill the cores it leaves idle;
// on a busy machine that starved both (six PostgreSQL files ran past their ceilings, and
// the pass took 1,390 s beside a 1,189 s browser suite), so the phases run one at a time.
import { spawn } from "node:child_process";
import path from "node:path";
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
// HTTP and HTML, cache headers, the mail timing, disk and S3 faults): they ran on SQLite
// and would spend minutes on PostgreSQL proving nothing about it. The auth, account-abuse,
// OAuth, input-limit and fuzz files stay: their rows, rate limits and odd strings (NUL,
// huge values) are where the dialects differ.
const DIALECT_NEUTRAL = /^tests\/(security\/(attacks|admin-access|cache-rules|mail-timing)|faults\/storage)\.test\.ts$/;

export function postgresTestFiles(): string[] {
  return databaseTestFiles(DATABASE_TEST_GLOBS).filter((f) => !DIALECT_NEUTRAL.test(f));
}

interface Phase {
  name: string;
  seconds: number;
  ok: boolean;
}

const phases: Phase[] = [];

/** Runs a command to its end, its output going to the terminal. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: "inherit" });
    child.on("error", (error) => {
      console.error(`${command}: ${error.message}`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
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

function printPhases(): void {
  console.log("\n== phase times");
  for (const p of phases) {
    console.log(`${p.ok ? "  ok  " : "FAILED"} ${p.seconds.toFixed(0).padStart(5)} s  ${p.name}`);
  }
}

async function postgresPass(url: string): Promise<boolean> {
  const files = postgresTestFiles();
  // The finder follows relative imports; far fewer files means it broke, not that the
  // database code shrank.
  if (files.length <= 50) {
    console.error(`only ${files.length} test files reach a database: the finder is broken`);
    return false;
  }
  console.log(`${files.length} test files reach a database`);
  return run(bin("vitest"), ["run", ...files], { TEST_DATABASE_URL: url });
}

async function main(): Promise<number> {
  const postgres = process.env.TEST_POSTGRES_URL;
  const sequential: [string, () => Promise<boolean>][] = [
    ["lint", () => run(bin("biome"), ["check", "."])],
    ["typecheck", () => run("npm", ["run", "--silent", "typecheck"])],
    [
      "build",
      async () => {
        ensureBuild({ quiet: true });
        return true;
      },
    ],
    // TEST_DATABASE_URL unset: the SQLite pass, whatever the caller's environment says.
    ["unit and integration (SQLite)", () => run(bin("vitest"), ["run"], { TEST_DATABASE_URL: "" })],
  ];
  try {
    for (const [name, work] of sequential) {
      if (!(await phase(name, work))) return 1;
    }
    if (!(await phase("browser suite", () => run("node", ["scripts/e2e.ts"], { TEST_DATABASE_URL: "" })))) return 1;
    if (!postgres) return 0;
    if (!(await phase("unit and integration (PostgreSQL)", () => postgresPass(postgres)))) return 1;
    const clusterOk = await phase("cluster test (two instances, PostgreSQL, S3, a proxy)", () =>
      run(bin("vitest"), ["run", "--config", "vitest.cluster.config.ts"], { TEST_DATABASE_URL: postgres }),
    );
    return clusterOk ? 0 : 1;
  } finally {
    printPhases();
  }
}

if (import.meta.main) process.exitCode = await main();
