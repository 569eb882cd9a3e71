import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "../../app/root.tsx";
import { loader as postLoader } from "../../app/routes/blog/post-detail.tsx";
import type { Boot } from "../../app/server/boot/services.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { bootDemoBlog, publishedPostAt } from "../setup/demo-boot.ts";
import { QueryRecorder } from "../setup/query-recorder.ts";
import { callRoute, type RouteHandler, requestStateFor, testRouterContext } from "../setup/router-context.ts";
import { testDialect } from "../setup/test-db.ts";

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
  let close: (() => Promise<void>) | undefined;
  const recorder = new QueryRecorder();
  let recording: DB;
  let postId = "";

  beforeAll(async () => {
    ({ boot, close } = await bootDemoBlog(40));
    recording = boot.database.db.withPlugin(recorder);
    // A post with neighbours on both sides, related posts and comments.
    postId = await publishedPostAt(boot.database.db, 1);
  }, 120_000);

  afterAll(async () => {
    await close?.();
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
