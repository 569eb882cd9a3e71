// `npm run cli -- <command>`: operations on the blog's data from the shell.
import { openDatabase } from "../app/server/db/db.server.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../app/server/db/migrate.server.ts";
import { EnvError, normalizeEmail, parseEnv } from "../app/server/env.server.ts";
import { addAdmins, countAdmins, listAdmins, removeAdmin } from "../app/server/repos/admins.server.ts";

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  migrate            apply pending database migrations (a no-op when up to date)
  migrate:status     list applied and pending migrations
  migrate:down       roll back the most recent migration (development only)
  admin list         list admin e-mails
  admin add <email>  make the account with this e-mail an admin (once its e-mail is verified)
  admin remove <email> [--force]
                     take admin away (refuses the last admin without --force)
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

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

async function adminCommand(args: string[]): Promise<number> {
  const [sub, rawEmail] = args;
  if (sub === "list") {
    const admins = await withDatabase((d) => migrateToLatest(d.db).then(() => listAdmins(d.db)));
    if (admins.length === 0) console.log("no admins yet");
    for (const a of admins) console.log(`${a.email}\t${a.source}\t${a.createdAt}`);
    return 0;
  }
  if (sub !== "add" && sub !== "remove") {
    console.error("usage: admin list | admin add <email> | admin remove <email> [--force]");
    return 2;
  }
  const email = normalizeEmail(rawEmail ?? "");
  if (!EMAIL_RE.test(email)) {
    console.error(`not an e-mail address: ${rawEmail ?? "(none)"}`);
    return 2;
  }
  return withDatabase(async ({ db }) => {
    await migrateToLatest(db);
    if (sub === "add") {
      const added = await addAdmins(db, [email], "cli");
      console.log(added.length ? `added admin ${email}` : `${email} is already an admin`);
      return 0;
    }
    const admins = await listAdmins(db);
    if (!admins.some((a) => a.email === email)) {
      console.log(`${email} is not an admin`);
      return 0;
    }
    if ((await countAdmins(db)) === 1 && !args.includes("--force")) {
      console.error(`${email} is the last admin; add another first, or use --force`);
      return 2;
    }
    await removeAdmin(db, email);
    console.log(`removed admin ${email}`);
    return 0;
  });
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
    case "admin":
      return adminCommand(rest);
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
