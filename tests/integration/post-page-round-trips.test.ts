import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "../../app/root.tsx";
import { loader as postLoader } from "../../app/routes/blog/post-detail.tsx";
import { type Boot, createServices } from "../../app/server/boot/services.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { parseEnv } from "../../app/server/platform/env.server.ts";
import { seedDemo } from "../../scripts/demo/seed.ts";
import { QueryRecorder } from "../setup/query-recorder.ts";
import { callRoute, type RouteHandler, requestStateFor, testRouterContext } from "../setup/router-context.ts";
import { tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

// Issue 50: on PostgreSQL each statement is a round trip over the network, so an uncached
// post page costs about as many round trips as it sends statements. This counts every
// statement one anonymous reader's post page sends (the root's loader and the page's,
// after a first reader filled what an instance keeps between requests) on each dialect.

// Before issue 50: 10 on SQLite (two of them `pragma data_version`, in process) and 8 on PostgreSQL.
// SQLite's 8 hold three such in-process pragmas: the menus' kept copy (decision 035) checks
// the write stamp after the footer links, whose count it needs; PostgreSQL has no such read.
const ROUND_TRIPS = { sqlite: 8, postgres: 5 } as const;

describe(`an anonymous post page's round trips (${testDialect()})`, () => {
  let boot: Boot;
  let cleanup: () => Promise<void>;
  const recorder = new QueryRecorder();
  let recording: DB;
  let postId = "";

  beforeAll(async () => {
    const dataDir = tempDataDir();
    const database = await createServerDatabaseUrl(dataDir);
    cleanup = database.cleanup;
    const env = parseEnv({
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      LOG_REQUESTS: "false",
    });
    boot = await createServices(env);
    const db = boot.database.db;
    await seedDemo(db, { posts: 40 });
    recording = db.withPlugin(recorder);
    // A post with neighbours on both sides, related posts and comments.
    const post = await db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "published")
      .orderBy("publishedAt", "desc")
      .limit(1)
      .offset(1)
      .executeTakeFirstOrThrow();
    postId = post.id;
  }, 120_000);

  afterAll(async () => {
    await boot?.close();
    await cleanup?.();
  });

  async function load(url: string): Promise<{ roundTrips: number; sql: string[] }> {
    const request = new Request(`http://blog.test${url}`);
    // One request state for both loaders, as the server makes it: they share its settings read.
    const context = testRouterContext(
      { ...boot.services, db: recording, buildId: "test" },
      requestStateFor(request.url),
    );
    recorder.reset();
    const root = await callRoute(rootLoader as RouteHandler, { request, context });
    const page = await callRoute(postLoader as RouteHandler, { request, context, params: { id: postId } });
    expect([root.status, page.status], url).toEqual([200, 200]);
    const sql = recorder.queries.map((q) => boot.database.db.getExecutor().compileQuery(q.node, q.queryId).sql);
    return { roundTrips: recorder.roundTrips, sql };
  }

  it.each(["/posts/detail/", "/zh/posts/detail/"])("%s{id}", async (path) => {
    await load(`${path}${postId}`); // the first reader fills the instance's kept counts
    const { roundTrips, sql } = await load(`${path}${postId}`);
    expect(roundTrips, sql.join("\n\n")).toBe(ROUND_TRIPS[testDialect()]);
  });
});
