// `npm run bench:federation [-- --followers 10000 --servers 200 --no-shared-inbox --database-url postgres://…]`:
// one post published to N followers of the English account spread over S servers, through
// the production federation service (the sync, Fedify's fan-out, our durable queue and the
// delivery log), to fake inbox servers in their own process (bench/fediverse-sink.ts) that
// verify every HTTP signature with Fedify. By default each follower's server declares a
// shared inbox, so one request per server suffices (S requests); --no-shared-inbox sends
// one per follower (N requests). Reports deliveries/s, the time to deliver all, and this
// process's peak RSS growth. Targets (issue 22): all within 5 minutes, RSS growth < 100 MiB.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { pino } from "pino";
import { nowIso, openDatabase } from "../app/server/db/db.server.ts";
import { migrateToLatest } from "../app/server/db/migrate.server.ts";
import { createFederationService } from "../app/server/federation/service.server.ts";
import { parseEnv } from "../app/server/platform/env.server.ts";
import { newId } from "../app/server/platform/ids.server.ts";
import { createPost } from "../app/server/posts/posts.server.ts";
import { freePort } from "../tests/setup/server-process.ts";

const { values: args } = parseArgs({
  options: {
    followers: { type: "string", default: "10000" },
    servers: { type: "string", default: "200" },
    "no-shared-inbox": { type: "boolean", default: false },
    "database-url": { type: "string" },
    // Prints this process's memory (RSS, V8 heap, external) every second to stderr.
    "trace-memory": { type: "boolean", default: false },
  },
});
const FOLLOWERS = Number(args.followers);
const SERVERS = Number(args.servers);
const SHARED = !args["no-shared-inbox"];
const EXPECTED = SHARED ? Math.min(SERVERS, FOLLOWERS) : FOLLOWERS;
const TARGET_SECONDS = 300;
const TARGET_RSS_MIB = 100;

const dataDir = mkdtempSync(path.join(tmpdir(), "inkwell-bench-federation-"));
const databaseUrl = args["database-url"];
const port = await freePort();
const publicUrl = `http://127.0.0.1:${port}`;
const env = parseEnv({
  PORT: String(port),
  PUBLIC_URL: publicUrl,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl ?? "",
  FEDERATION: "on",
  SCHEDULER_INTERVAL_MS: "500",
  LOG_LEVEL: "silent",
});
const database = openDatabase(env.database);
const { db } = database;
await migrateToLatest(db);
if (databaseUrl) {
  // A reused PostgreSQL database: start from no followers, queue or log.
  for (const table of [
    "federationFollowers",
    "federationQueue",
    "federationPosts",
    "federationDeliveries",
    "federationServers",
    "federationKv",
  ] as const) {
    await db.deleteFrom(table).execute();
  }
}

// The inbox servers, in their own process: this process's CPU and memory are the blog's alone.
const sink = spawn(process.execPath, [path.join(import.meta.dirname, "fediverse-sink.ts")], {
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, SERVERS: String(SERVERS) },
});
let sinkOutput = "";
sink.stdout.on("data", (chunk: Buffer) => {
  sinkOutput += chunk.toString();
});
const sinkPort = await new Promise<number>((resolve, reject) => {
  const check = setInterval(() => {
    const found = /port (\d+)/.exec(sinkOutput)?.[1];
    if (found) {
      clearInterval(check);
      resolve(Number(found));
    }
  }, 20);
  sink.once("exit", () => reject(new Error("the sink exited")));
});
type SinkStats = { delivered: number; refused: number; hosts: number };
/** The sink's counts; a busy sink may drop an idle keep-alive connection: asked again then. */
const stats = async (): Promise<SinkStats> => {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`http://127.0.1.1:${sinkPort}/stats`, { headers: { connection: "close" } });
      return (await res.json()) as SinkStats;
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
};

// The blog: the federation service as the server builds it (test seam: http and loopback),
// and the federation endpoints the inbox servers fetch the signing key from.
const log = pino({ level: "silent" });
const service = createFederationService({
  db,
  env,
  log,
  testMode: { allowPrivateAddress: true, allowHttp: true },
});
const http = createServer(async (req, res) => {
  const response = await (await service.load()).fetch(
    new Request(new URL(req.url ?? "/", publicUrl), {
      method: req.method ?? "GET",
      headers: { accept: String(req.headers.accept ?? "application/activity+json") },
    }),
    { contextData: service.data },
  );
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));

// Followers of the English account, spread evenly over the servers.
const at = nowIso();
for (let i = 0; i < FOLLOWERS; i += 500) {
  const rows = Array.from({ length: Math.min(500, FOLLOWERS - i) }, (_, j) => {
    const n = i + j;
    const server = `127.0.1.${(n % SERVERS) + 1}:${sinkPort}`;
    return {
      id: newId(),
      actor: "en" as const,
      followerUri: `http://${server}/users/${n}`,
      inboxUrl: `http://${server}/users/${n}/inbox`,
      sharedInboxUrl: SHARED ? `http://${server}/inbox` : null,
      handle: `@reader${n}@${server}`,
      name: `Reader ${n}`,
      server,
      createdAt: at,
    };
  });
  await db.insertInto("federationFollowers").values(rows).execute();
}
// The first sync notes when federation began (nothing to send yet).
await service.syncPosts();

global.gc?.();
const MiB = 1024 * 1024;
const before = process.memoryUsage();
const rssBefore = before.rss;
let peakRss = rssBefore;
// Where a peak comes from: V8's heap (JS objects) or outside it (buffers, native allocations).
let peakHeap = before.heapUsed;
let peakExternal = before.external;
let ticks = 0;
const sampler = setInterval(() => {
  const now = process.memoryUsage();
  peakRss = Math.max(peakRss, now.rss);
  peakHeap = Math.max(peakHeap, now.heapUsed);
  peakExternal = Math.max(peakExternal, now.external);
  if (args["trace-memory"] && ++ticks % 20 === 0) {
    console.error(
      `${(ticks / 20).toFixed(0)} s: rss +${((now.rss - rssBefore) / MiB).toFixed(1)} MiB, heap used +${((now.heapUsed - before.heapUsed) / MiB).toFixed(1)} (total ${(now.heapTotal / MiB).toFixed(1)}), external +${((now.external - before.external) / MiB).toFixed(1)} MiB`,
    );
  }
}, 50);

const started = performance.now();
const cpuBefore = process.cpuUsage();
const postId = newId();
await createPost(db, {
  id: postId,
  slug: `bench-${postId}`,
  authorId: null,
  status: "published",
  publishedAt: nowIso(),
  translations: [
    {
      locale: "en",
      title: "Overnight bread",
      summary: "A slow loaf",
      bodyHtml: `<p>${"The dough rests overnight in a cool room. ".repeat(200)}</p>`,
    },
  ],
});
service.start();
let last: SinkStats = { delivered: 0, refused: 0, hosts: 0 };
const deadline = Date.now() + 15 * 60_000;
while (last.delivered < EXPECTED) {
  if (Date.now() > deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
  last = await stats();
}
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(sampler);
// Let the last delivery's log row land before counting.
await new Promise((resolve) => setTimeout(resolve, 500));
const logged = await db
  .selectFrom("federationDeliveries")
  .select((eb) => eb.fn.countAll<number | string>().as("n"))
  .where("outcome", "=", "sent")
  .executeTakeFirstOrThrow();
await service.stop();
http.close();
sink.kill("SIGTERM");
await new Promise((resolve) => sink.once("exit", resolve));
await database.close();
rmSync(dataDir, { recursive: true, force: true });

const rate = last.delivered / seconds;
const growthMiB = (peakRss - rssBefore) / 1024 / 1024;
const ok = last.delivered >= EXPECTED && last.refused === 0 && seconds <= TARGET_SECONDS && growthMiB < TARGET_RSS_MIB;
console.log(
  `Federation: one post to ${FOLLOWERS.toLocaleString("en")} followers on ${SERVERS} servers, ` +
    `${SHARED ? "shared inboxes" : "no shared inboxes"}, ${databaseUrl ? "PostgreSQL" : "SQLite"}\n`,
);
console.log(
  "| requests expected | delivered (signature verified) | refused | seconds (target ≤ 300) | deliveries/s | CPU per delivery | peak RSS growth (target < 100 MiB) |",
);
console.log("|---|---|---|---|---|---|---|");
console.log(
  `| ${EXPECTED.toLocaleString("en")} | ${last.delivered.toLocaleString("en")} | ${last.refused} | ${seconds.toFixed(1)} | ${rate.toFixed(0)} | ${((cpu.user + cpu.system) / 1000 / Math.max(1, last.delivered)).toFixed(2)} ms | ${growthMiB.toFixed(1)} MiB |`,
);
console.log(
  `\nLogged as sent in the delivery log: ${Number(logged.n).toLocaleString("en")}; servers reached: ${last.hosts}.`,
);
console.log(
  `Peak growth split: V8 heap used +${((peakHeap - before.heapUsed) / MiB).toFixed(1)} MiB, external +${((peakExternal - before.external) / MiB).toFixed(1)} MiB (the rest of RSS: heap pages V8 reserved, native memory, code).`,
);
console.log(`\n${ok ? "within" : "OVER"} the targets`);
process.exitCode = ok ? 0 : 1;
