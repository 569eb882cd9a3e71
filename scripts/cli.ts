// `npm run cli -- <command>`: operations on the blog's data from the shell.
import { openDatabase } from "../app/server/db/db.server.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../app/server/db/migrate.server.ts";
import { EnvError, parseEnv } from "../app/server/env.server.ts";

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  migrate            apply pending database migrations (a no-op when up to date)
  migrate:status     list applied and pending migrations
  migrate:down       roll back the most recent migration (development only)
  help, --help       show this help

The database comes from DATABASE_URL (default: a SQLite file in DATA_DIR, ./data).`;

async function withDatabase<T>(fn: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const env = parseEnv();
  const database = openDatabase(env.database, { poolMax: 2 });
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

export async function runCli(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(HELP);
      return command === undefined ? 1 : 0;
    case "migrate": {
      const applied = await withDatabase((d) => migrateToLatest(d.db));
      console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
      return 0;
    }
    case "migrate:status": {
      const report = await withDatabase((d) => migrationStatus(d.db));
      for (const name of report.applied) console.log(`applied  ${name}`);
      for (const name of report.pending) console.log(`pending  ${name}`);
      return 0;
    }
    case "migrate:down": {
      if (!rest.includes("--yes")) {
        console.error("migrate:down drops data; run it again with --yes to confirm");
        return 2;
      }
      const undone = await withDatabase((d) => migrateDown(d.db));
      console.log(undone.length ? `rolled back: ${undone.join(", ")}` : "nothing to roll back");
      return 0;
    }
    default:
      console.error(`unknown command: ${command}\n\n${HELP}`);
      return 2;
  }
}

if (import.meta.main) {
  try {
    process.exitCode = await runCli(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(error instanceof EnvError ? `inkwell: ${message}` : `inkwell: ${message}`);
    process.exitCode = 1;
  }
}
