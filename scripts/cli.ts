// `npm run cli -- <command>`: operations on the blog's data from the shell.

import { addAdmins, countAdmins, listAdmins, removeAdmin } from "../app/server/accounts/admins.server.ts";
import { type DB, openDatabase } from "../app/server/db/db.server.ts";
import { migrateDown, migrateToLatest, migrationStatus } from "../app/server/db/migrate.server.ts";
import { refreshStatistics } from "../app/server/db/statistics.server.ts";
import { collectGarbage } from "../app/server/media/media.server.ts";
import { EnvError, normalizeEmail, parseEnv } from "../app/server/platform/env.server.ts";
import { reindexAll } from "../app/server/search/index.server.ts";
import { createStorage } from "../app/server/storage/index.server.ts";

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  migrate            apply pending database migrations (a no-op when up to date)
  migrate:status     list applied and pending migrations
  migrate:down       roll back the most recent migration (development only)
  admin list         list admin e-mails
  admin add <email>  make the account with this e-mail an admin (once its e-mail is verified)
  admin remove <email> [--force]
                     take admin away (refuses the last admin without --force)
  search:reindex     rebuild the search index of every post
  posts:rerender     render every post body again from its Markdown (after an upgrade that
                     changes the stored markup), then reindex it
  media gc [--delete]
                     list stored files no media record refers to (older than an
                     hour); with --delete, remove them
  seed --demo [--posts N] [--force]
                     add demo content: categories, tags, N bilingual posts of ~1,500
                     words (default 24, at most 10000) and comments by "Demo Author"
                     (demo@example.invalid); refuses when that author exists, unless
                     --force
  backup <file>      write one .tar.gz: a consistent database snapshot, every
                     stored file, and a manifest with SHA-256 checksums
  restore <file> [--force]
                     check the whole archive, then restore it into an empty site
                     (no rows, no stored files); --force replaces what is there.
                     Stop the server first.
  export <file.json> [--with-passwords]
                     all content as portable JSON (SQLite or PostgreSQL); password
                     hashes and OAuth tokens only with --with-passwords
  import <file.json> [--force]
                     load an export into an empty database in one transaction;
                     --force replaces the content that is there
  import:markdown <dir|zip> [--dry-run] [--author <email>] [--permalink <pattern>]
                  [--pages-folder <folder>] [--fetch-remote]
                     import a folder (or zip) of Markdown posts (Hugo, Hexo, Jekyll, Astro…)
                     with YAML, TOML or JSON front matter: bilingual pairs become one
                     post, relative images are uploaded, old addresses redirect to the
                     new posts. A second run updates changed posts and skips the rest;
                     a killed run resumes. --dry-run prints the report and writes
                     nothing; --author picks the owner (default: the first admin);
                     --permalink adds an old-address pattern (:year :month :day :slug
                     :filename :section), e.g. /blog/:year/:slug/; files with
                     type: page or layout: page, and those in --pages-folder (e.g.
                     content/pages), become pages at /{slug}
                     --fetch-remote (all three imports) fetches remote images into the
                     media library (time-outs, size limit, images only, no private
                     addresses); without it they stay links and are listed
  import:ghost <export.json> [--members <csv>] [--images <dir|zip>] [--lang en|zh]
               [--fetch-remote] [--dry-run] [--author <email>]
                     import a Ghost 5/6 JSON export the same way: posts, pages (as
                     pages at /{slug}), drafts, scheduled posts, public tags; /{slug}/
                     redirects; images from Ghost's content/images folder or a zip;
                     --members subscribes the members CSV's subscribed_to_emails rows;
                     --lang sets the blog's language (default: by each title's script)
  import:wordpress <export.xml> [--images <dir|zip>] [--lang en|zh] [--dry-run]
                   [--fetch-remote] [--author <email>]
                     import a WordPress WXR export the same way: posts, pages (as pages
                     at /{slug}), drafts, private posts (as drafts), scheduled
                     posts, comments with their replies and approval state, revisions,
                     featured images, Polylang pairs; /?p=ID and old permalinks
                     redirect; images from the uploads folder (--images, or --uploads)
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

/**
 * With REDIS_URL the running instances watch the content version in Redis, not
 * the database row the import bumped: bump that one too, so they drop old pages.
 */
async function bumpRedisContentVersion(db: DB): Promise<void> {
  const env = parseEnv();
  if (!env.redis) return;
  const { createSharedState } = await import("../app/server/shared-state/index.server.ts");
  const { pino } = await import("pino");
  const shared = await createSharedState(env, db, pino({ level: "silent" }));
  try {
    await shared.contentVersion.bump();
  } finally {
    await shared.close();
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

async function seedCommand(args: string[]): Promise<number> {
  // Loaded only here: the Markdown pipeline is not worth loading for every command.
  const { DEMO_EMAIL, MAX_DEMO_POSTS, DEFAULT_DEMO_POSTS, SeedRefused, seedDemo } = await import("./demo/seed.ts");
  const known = new Set(["--demo", "--posts", "--force"]);
  const unknown = args.filter((a, i) => !known.has(a) && args[i - 1] !== "--posts");
  if (!args.includes("--demo") || unknown.length > 0) {
    console.error("usage: seed --demo [--posts N] [--force]");
    return 2;
  }
  let posts = DEFAULT_DEMO_POSTS;
  const postsAt = args.indexOf("--posts");
  if (postsAt >= 0) {
    const raw = args[postsAt + 1] ?? "";
    if (!/^\d{1,6}$/.test(raw) || Number(raw) > MAX_DEMO_POSTS) {
      console.error(`--posts needs a whole number from 0 to ${MAX_DEMO_POSTS}`);
      return 2;
    }
    posts = Number(raw);
  }
  return withDatabase(async (database) => {
    const { db } = database;
    await migrateToLatest(db);
    try {
      const r = await seedDemo(db, { posts, force: args.includes("--force") });
      await refreshStatistics(database, { all: true });
      console.log(
        `seeded ${r.posts} posts (${r.published} published, ${r.drafts} drafts, ${r.scheduled} scheduled), ` +
          `${r.categories} categories, ${r.tags} tags, ${r.comments} comments by ${DEMO_EMAIL}`,
      );
      return 0;
    } catch (error) {
      if (error instanceof SeedRefused) {
        console.error(error.message);
        return 2;
      }
      throw error;
    }
  });
}

async function mediaCommand(args: string[]): Promise<number> {
  const [sub, ...flags] = args;
  if (sub !== "gc") {
    console.error(`unknown media command: ${sub ?? "(none)"}; try: media gc [--delete]`);
    return 2;
  }
  const remove = flags.includes("--delete");
  const env = parseEnv();
  const storage = await createStorage(env.storage, env.storageRetry);
  const { orphans, removed } = await withDatabase((d) =>
    migrateToLatest(d.db).then(() => collectGarbage({ db: d.db, storage }, { remove })),
  );
  for (const key of orphans) console.log(`${remove ? "removed" : "orphan "}  ${key}`);
  console.log(
    remove
      ? `removed ${removed} file(s) no media record refers to`
      : `${orphans.length} file(s) no media record refers to (dry run; add --delete to remove them)`,
  );
  return 0;
}

function fileArgument(args: string[], flags: string[], usage: string): string | null {
  const files = args.filter((a) => !a.startsWith("--"));
  const unknown = args.filter((a) => a.startsWith("--") && !flags.includes(a));
  if (files.length !== 1 || unknown.length > 0) {
    console.error(`usage: ${usage}`);
    return null;
  }
  return files[0] ?? null;
}

async function backupCommand(args: string[]): Promise<number> {
  const file = fileArgument(args, [], "backup <file.tar.gz>");
  if (!file) return 2;
  const { createBackup } = await import("../app/server/ops/backup.server.ts");
  const env = parseEnv();
  const storage = await createStorage(env.storage, env.storageRetry);
  const manifest = await withDatabase(async (database) => {
    await migrateToLatest(database.db);
    return createBackup({ database: env.database, storage, dataDir: env.dataDir }, database, file);
  });
  const files = manifest.entries.filter((e) => e.name.startsWith("files/")).length;
  const rows = Object.values(manifest.counts).reduce((a, b) => a + b, 0);
  console.log(`backup written to ${file}: ${manifest.dialect} database (${rows} rows), ${files} file(s)`);
  return 0;
}

async function restoreCommand(args: string[]): Promise<number> {
  const file = fileArgument(args, ["--force"], "restore <file.tar.gz> [--force]");
  if (!file) return 2;
  const [{ restoreBackup }, { RestoreRefused }] = await Promise.all([
    import("../app/server/ops/restore.server.ts"),
    import("../app/server/ops/backup-format.server.ts"),
  ]);
  const { ArchiveError } = await import("../app/server/ops/tar.server.ts");
  // Parse without generating a session secret into DATA_DIR: the backup brings its own.
  const env = parseEnv({ ...process.env, AUTH_SECRET: process.env.AUTH_SECRET || "x".repeat(32) });
  const storage = await createStorage(env.storage, env.storageRetry);
  try {
    const result = await restoreBackup(
      file,
      { database: env.database, storage, dataDir: env.dataDir },
      { force: args.includes("--force") },
    );
    const rows = Object.values(result.counts).reduce((a, b) => a + b, 0);
    console.log(
      `restored ${file} (made ${result.manifest.createdAt} on ${result.manifest.dialect}): ${rows} rows, ${result.files} file(s)`,
    );
    return 0;
  } catch (error) {
    if (error instanceof RestoreRefused || error instanceof ArchiveError) {
      console.error(`restore refused: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

async function exportCommand(args: string[]): Promise<number> {
  const file = fileArgument(args, ["--with-passwords"], "export <file.json> [--with-passwords]");
  if (!file) return 2;
  const { exportContent } = await import("../app/server/ops/export.server.ts");
  const result = await withDatabase(async (database) => {
    await migrateToLatest(database.db);
    return exportContent(database, file, { withPasswords: args.includes("--with-passwords") });
  });
  const summary = Object.entries(result.counts)
    .map(([t, n]) => `${t} ${n}`)
    .join(", ");
  console.log(`exported to ${result.file}: ${summary}`);
  return 0;
}

async function importCommand(args: string[]): Promise<number> {
  const file = fileArgument(args, ["--force"], "import <file.json> [--force]");
  if (!file) return 2;
  const { importContent, ImportRefused, parseExport } = await import("../app/server/ops/export.server.ts");
  const { readFile } = await import("node:fs/promises");
  let doc: ReturnType<typeof parseExport>;
  try {
    doc = parseExport(await readFile(file, "utf8"));
  } catch (error) {
    console.error(`import refused: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  return withDatabase(async (database) => {
    await migrateToLatest(database.db);
    try {
      const counts = await importContent(database, doc, { force: args.includes("--force") });
      await bumpRedisContentVersion(database.db);
      const summary = Object.entries(counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(", ");
      console.log(`imported ${file}: ${summary || "nothing"}`);
      return 0;
    } catch (error) {
      if (error instanceof ImportRefused) {
        console.error(`import refused: ${error.message}`);
        return 2;
      }
      throw error;
    }
  });
}

/** `import:markdown`, `import:ghost` and `import:wordpress`: one runner over a table of commands. */
async function runImport(
  name: "import:markdown" | "import:ghost" | "import:wordpress",
  args: string[],
): Promise<number> {
  const { runImportCommand, tuneImportHeap } = await import("./import-command.ts");
  const { setFlagsFromString } = await import("node:v8");
  tuneImportHeap(setFlagsFromString, { execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS });
  const env = parseEnv();
  const storage = await createStorage(env.storage, env.storageRetry);
  return withDatabase(async ({ db }) => {
    await migrateToLatest(db);
    return runImportCommand(name, args, {
      db,
      storage,
      uploadMaxBytes: env.uploadMaxBytes,
      dataDir: env.dataDir,
      bump: async () => {
        const { bumpContentVersion } = await import("../app/server/cache/content-version.server.ts");
        await bumpContentVersion(db);
        await bumpRedisContentVersion(db);
      },
    });
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
    case "search:reindex": {
      const { posts, rows } = await withDatabase((d) => migrateToLatest(d.db).then(() => reindexAll(d.db)));
      console.log(`reindexed ${posts} posts (${rows} language versions indexed)`);
      return 0;
    }
    case "posts:rerender": {
      const { rerenderAllPosts } = await import("../app/server/render/post-rerender.server.ts");
      const r = await withDatabase((d) => migrateToLatest(d.db).then(() => rerenderAllPosts(d.db)));
      console.log(
        `rendered ${r.versions} language versions of ${r.posts} posts again` +
          (r.skipped ? `; ${r.skipped} kept their stored HTML (nested too deep to render)` : ""),
      );
      return 0;
    }
    case "seed":
      return seedCommand(rest);
    case "media":
      return mediaCommand(rest);
    case "backup":
      return backupCommand(rest);
    case "restore":
      return restoreCommand(rest);
    case "export":
      return exportCommand(rest);
    case "import":
      return importCommand(rest);
    case "import:markdown":
    case "import:ghost":
    case "import:wordpress":
      return runImport(command, rest);
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
