// `npm run bench:newsletter [-- --subscribers 10000 --database-url postgres://…]`: one
// post mailed to N confirmed subscribers through the outbox worker, with the rate
// limit off, to a local SMTP server in its own process (bench/smtp-sink.ts).
// Reports messages per second from publication to the last mail marked sent, and
// the process's peak RSS growth. Targets (issue 20): ≥ 200 messages/s and RSS growth
// under 50 MiB at 10,000 subscribers. Prints a Markdown table.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { nowIso, openDatabase } from "../app/server/db/db.server.ts";
import { migrateToLatest } from "../app/server/db/migrate.server.ts";
import { startMailWorker } from "../app/server/mail/outbox.server.ts";
import { relaxedOutcomeWrites } from "../app/server/mail/relaxed-writes.server.ts";
import { createMailTransport } from "../app/server/mail/transport.server.ts";
import { newsletterOutboxHooks } from "../app/server/newsletter/worker.server.ts";
import type { Env } from "../app/server/platform/env.server.ts";
import { parseDatabaseUrl } from "../app/server/platform/env.server.ts";
import { newId } from "../app/server/platform/ids.server.ts";
import { createPost } from "../app/server/posts/posts.server.ts";
import { renderPost } from "../app/server/render/post-render.server.ts";

const { values: args } = parseArgs({
  options: {
    subscribers: { type: "string", default: "10000" },
    "database-url": { type: "string" },
  },
});
const COUNT = Number(args.subscribers);
const TARGET_RATE = 200;
const TARGET_RSS_MIB = 50;

const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-bench-newsletter-"));
const databaseUrl = args["database-url"];
const database = openDatabase(
  databaseUrl ? parseDatabaseUrl(databaseUrl, dataDir) : { dialect: "sqlite", file: path.join(dataDir, "bench.db") },
);
const { db } = database;
await migrateToLatest(db);
if (databaseUrl) {
  // A reused PostgreSQL database: start from no subscribers, sends or mail.
  await db.deleteFrom("mailOutbox").execute();
  await db.deleteFrom("newsletterSends").execute();
  await db.deleteFrom("subscribers").execute();
}

// The SMTP server runs in its own process, as a real one would: this process's CPU and
// memory are the sender's alone.
const sink = spawn(process.execPath, [path.join(import.meta.dirname, "smtp-sink.ts")], {
  stdio: ["ignore", "pipe", "inherit"],
});
let sinkOutput = "";
sink.stdout.on("data", (chunk: Buffer) => {
  sinkOutput += chunk.toString();
});
const smtpPort = await new Promise<number>((resolve, reject) => {
  const check = setInterval(() => {
    const port = /port (\d+)/.exec(sinkOutput)?.[1];
    if (port) {
      clearInterval(check);
      resolve(Number(port));
    }
  }, 20);
  sink.once("exit", () => reject(new Error("the SMTP sink exited")));
});

// Subscribers, half in each language, some reading both.
const at = nowIso();
for (let i = 0; i < COUNT; i += 500) {
  const rows = Array.from({ length: Math.min(500, COUNT - i) }, (_, j) => {
    const id = newId();
    const n = i + j;
    return {
      id,
      email: `reader${n}@example.test`,
      locale: n % 2 === 0 ? ("en" as const) : ("zh" as const),
      languages: n % 3 === 0 ? ("both" as const) : n % 2 === 0 ? ("en" as const) : ("zh" as const),
      status: "confirmed" as const,
      confirmTokenHash: `c-${id}`,
      unsubscribeTokenHash: `u-${id}`,
      confirmedAt: at,
      unsubscribedAt: null,
      createdAt: at,
      updatedAt: at,
    };
  });
  await db.insertInto("subscribers").values(rows).execute();
}

// A post of realistic length (about 1,200 words a language, code and a table).
const paragraph = "The dough rests overnight in a cool room; the crumb opens and the crust crackles. ".repeat(8);
const markdown = `## Why\n\n${paragraph}\n\n\`\`\`js\nconst loaf = bake({ hydration: 0.75 });\n\`\`\`\n\n| flour | water |\n|---|---|\n| 500 g | 375 g |\n\n${`${paragraph}\n\n`.repeat(8)}`;
const [en, zh] = await Promise.all([renderPost(markdown, "en"), renderPost(markdown, "zh")]);
const postId = newId();

const ctx = { publicUrl: "https://blog.example", authSecret: "b".repeat(40), mailFrom: "Blog <blog@example.test>" };
const log = pino({ level: "silent" });
const transport = createMailTransport(
  { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, mailFrom: ctx.mailFrom, dataDir } as Env,
  log,
);

global.gc?.();
const rssBefore = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
let peakRss = rssBefore;
let peakHeap = 0;
let peakExternal = 0;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapTotal);
  peakExternal = Math.max(peakExternal, m.external);
}, 50);

const started = performance.now();
const cpuBefore = process.cpuUsage();
// Published with the box ticked: the post lifecycle starts its newsletter with it.
await createPost(db, {
  id: postId,
  slug: `bench-${postId}`,
  authorId: null,
  status: "published",
  publishedAt: at,
  newsletter: true,
  translations: [
    { locale: "en", title: "Overnight bread", summary: "A slow loaf", bodyHtml: en.html },
    { locale: "zh", title: "隔夜面包", summary: "慢慢发酵的面包", bodyHtml: zh.html },
  ],
});
const worker = startMailWorker(db, transport, log, {
  ratePerMinute: 100_000_000,
  intervalMs: 100,
  hooks: newsletterOutboxHooks(db, ctx),
  writeOutcome: relaxedOutcomeWrites(db, database.dialect),
});
for (;;) {
  const sent = await db
    .selectFrom("mailOutbox")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("status", "=", "sent")
    .executeTakeFirstOrThrow();
  if (Number(sent.n) >= COUNT) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
// What the send left behind once garbage is collected (run with --expose-gc): a leak shows here.
global.gc?.();
const heapKeptMiB = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
// The sender's CPU time per message: steadier than messages/s on a busy machine.
const cpuMsPerMessage = (cpu.user + cpu.system) / 1000 / COUNT;
clearInterval(sampler);
await worker.stop();
sink.kill("SIGTERM");
await new Promise((resolve) => sink.once("exit", resolve));
const received = Number(/received (\d+)/.exec(sinkOutput)?.[1] ?? 0);
await database.close();
rmSync(dataDir, { recursive: true, force: true });

const rate = COUNT / seconds;
const growthMiB = (peakRss - rssBefore) / 1024 / 1024;
const ok = rate >= TARGET_RATE && growthMiB < TARGET_RSS_MIB;
console.log(
  `Newsletter to ${COUNT.toLocaleString("en")} subscribers, ${databaseUrl ? "PostgreSQL" : "SQLite"}, rate limit off\n`,
);
console.log(
  "| messages | received by SMTP | seconds | messages/s (target ≥ 200) | CPU per message | peak RSS growth (target < 50 MiB) |",
);
console.log("|---|---|---|---|---|---|");
console.log(
  `| ${COUNT.toLocaleString("en")} | ${received.toLocaleString("en")} | ${seconds.toFixed(1)} | ${rate.toFixed(0)} | ${cpuMsPerMessage.toFixed(2)} ms | ${growthMiB.toFixed(1)} MiB |`,
);
console.log(
  `\nPeak V8 heap ${(peakHeap / 1024 / 1024).toFixed(0)} MiB, external ${(peakExternal / 1024 / 1024).toFixed(0)} MiB; ` +
    `heap kept after the send and a full GC: ${global.gc ? `${heapKeptMiB.toFixed(1)} MiB` : "(run with --expose-gc)"}.`,
);
console.log(`\n${ok ? "within" : "OVER"} the targets`);
process.exitCode = ok ? 0 : 1;
