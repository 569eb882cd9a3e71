import { type ChildProcess, spawn } from "node:child_process";
import type { DB } from "../../app/server/db/db.server.ts";
import { repoRoot } from "./server-process.ts";

// `npm run cli -- …` as a user runs it, for the integration tests of the CLI commands.

export interface CliRun {
  child: ChildProcess;
  /** The exit code and everything printed (stdout and stderr together). */
  done: Promise<{ code: number | null; out: string }>;
}

/** Starts `scripts/cli.ts` with the given arguments against a data folder and database. */
export function startCli(args: string[], env: { dataDir: string; databaseUrl: string }): CliRun {
  const child = spawn(process.execPath, ["scripts/cli.ts", ...args], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: env.dataDir,
      DATABASE_URL: env.databaseUrl,
      LOG_LEVEL: "silent",
    },
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += String(d);
  });
  child.stderr?.on("data", (d) => {
    out += String(d);
  });
  const done = new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, out })),
  );
  return { child, done };
}

/** The number of rows in a table. */
export async function countRows(
  db: DB,
  table:
    | "posts"
    | "media"
    | "redirects"
    | "importSources"
    | "subscribers"
    | "pages"
    | "comments"
    | "postRevisions"
    | "postImports",
): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}
