// `npm test`: every check, phase by phase, and each phase's time at the end.
//
//   lint → typecheck → build → unit and integration (SQLite) → browser suite
//
// With TEST_POSTGRES_URL set (.ci/run sets it when PostgreSQL answers), the test files
// whose imports reach a database run again on PostgreSQL *beside* the browser suite,
// then the cluster test. The browser suite spends much of its time waiting on pages,
// mail and timers, so the PostgreSQL pass fills the cores it leaves idle; its output is
// kept in a file and printed once it ends, so the two never interleave.
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
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

/** Runs a command to its end; its output goes to the terminal, or to `logFile`. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}, logFile?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: logFile ? ["ignore", "pipe", "pipe"] : "inherit",
    });
    if (logFile) {
      const out = createWriteStream(logFile);
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
    }
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

async function postgresPass(url: string, logFile: string): Promise<boolean> {
  const files = postgresTestFiles();
  // The finder follows relative imports; far fewer files means it broke, not that the
  // database code shrank.
  if (files.length <= 50) {
    console.error(`only ${files.length} test files reach a database: the finder is broken`);
    return false;
  }
  console.log(`${files.length} test files reach a database (output: ${logFile})`);
  return run(bin("vitest"), ["run", ...files], { TEST_DATABASE_URL: url }, logFile);
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
    const e2e = () => phase("browser suite", () => run("node", ["scripts/e2e.ts"], { TEST_DATABASE_URL: "" }));
    if (!postgres) return (await e2e()) ? 0 : 1;

    const logDir = mkdtempSync(path.join(tmpdir(), "inkwell-pg-pass-"));
    const logFile = path.join(logDir, "vitest.log");
    try {
      const [browserOk, postgresOk] = await Promise.all([
        e2e(),
        phase("unit and integration (PostgreSQL), beside the browser suite", () => postgresPass(postgres, logFile)),
      ]);
      console.log("\n== output of the PostgreSQL pass");
      try {
        process.stdout.write(readFileSync(logFile, "utf8"));
      } catch {
        console.log("(no output)");
      }
      if (!browserOk || !postgresOk) return 1;
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
    const clusterOk = await phase("cluster test (two instances, PostgreSQL, S3, a proxy)", () =>
      run(bin("vitest"), ["run", "--config", "vitest.cluster.config.ts"], { TEST_DATABASE_URL: postgres }),
    );
    return clusterOk ? 0 : 1;
  } finally {
    printPhases();
  }
}

if (import.meta.main) process.exitCode = await main();
