import { CompiledQuery } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loader as rootLoader } from "../../app/root.tsx";
import { loader as homeLoader } from "../../app/routes/blog/home.tsx";
import { loader as postLoader } from "../../app/routes/blog/post-detail.tsx";
import { loader as termLoader } from "../../app/routes/blog/term-posts.tsx";
import { loader as searchLoader } from "../../app/routes/search/search.tsx";
import type { Boot } from "../../app/server/boot/services.server.ts";
import type { DB } from "../../app/server/db/db.server.ts";
import { SEARCH_CANDIDATES } from "../../app/server/search/search.server.ts";
import { bootDemoBlog, publishedPostAt } from "../setup/demo-boot.ts";
import { QueryRecorder, type Recorded } from "../setup/query-recorder.ts";
import { callRoute, type RouteHandler, requestStateFor, testRouterContext } from "../setup/router-context.ts";
import { testDialect } from "../setup/test-db.ts";

// Issue 29: a public page reads a number of rows that does not grow with the blog. The
// demo seed makes a blog of POSTS posts; each public page's loaders (the root's and the
// page's) run in process with every query recorded, and each recorded query is explained
// on the test database's dialect: on PostgreSQL, EXPLAIN ANALYZE counts the rows each
// scan read; on SQLite, EXPLAIN QUERY PLAN must show no scan of a content table that is
// neither through an index nor stopped by a LIMIT. Totals and counts that an instance
// keeps between requests (post-counts.server.ts) are warmed first, as a reader finds them.

const POSTS = 2_000;
/**
 * Rows a page may read from the content tables, whatever the blog's size: a post page
 * reads ~550 (most of them weighing related posts, RELATED_CANDIDATES), lists and search
 * far fewer. Reading all of the posts (2,000) or of their translations would fail it.
 */
const ROW_BUDGET = 800;
const CONTENT_TABLES = new Set(["posts", "postTranslations", "tags", "postTags", "comments", "categories", "users"]);
/**
 * PostgreSQL: rows a search may read from its index ("postSearch", one row per post and
 * language), counted apart. Its two lists of SEARCH_CANDIDATES rows each are found by
 * probing recency buckets newest first, so a word in every post reads about as many rows
 * as a rare one; finding the newest matches among all of a word's matches read each one.
 */
const SEARCH_INDEX = new Set(["postSearch"]);
const SEARCH_INDEX_BUDGET = 3 * SEARCH_CANDIDATES;
/** SQLite: the tables that grow with the blog, which no page may read whole. */
const SCANNED_ONCE_IS_TOO_MUCH = new Set(["posts", "postTranslations", "tags", "postTags", "comments"]);

interface Cost {
  /** PostgreSQL: rows read from the content tables. */
  rows: number;
  /** PostgreSQL: rows read from the search index. */
  indexRows: number;
  /** SQLite: scans of a whole content table. */
  scans: string[];
  sql: string;
}

interface PgPlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PgPlanNode[];
}

/** Rows a PostgreSQL plan read from `tables` (returned or filtered out, every loop). */
function rowsRead(node: PgPlanNode, tables: ReadonlySet<string>): number {
  const own =
    node["Relation Name"] && tables.has(node["Relation Name"])
      ? ((node["Actual Rows"] ?? 0) +
          (node["Rows Removed by Filter"] ?? 0) +
          (node["Rows Removed by Index Recheck"] ?? 0)) *
        (node["Actual Loops"] ?? 1)
      : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, tables), 0);
}

describe(`public pages read a bounded number of rows (${testDialect()})`, () => {
  let boot: Boot;
  let db: DB;
  let close: (() => Promise<void>) | undefined;
  const recorder = new QueryRecorder();
  let recording: DB;
  let postId = "";
  let categorySlug = "";
  let tagSlug = "";

  beforeAll(async () => {
    ({ boot, close } = await bootDemoBlog(POSTS));
    db = boot.database.db;
    if (boot.database.dialect === "postgres") await db.executeQuery(CompiledQuery.raw("vacuum analyze"));
    else await db.executeQuery(CompiledQuery.raw("analyze"));
    recording = db.withPlugin(recorder);
    postId = await publishedPostAt(db, POSTS / 2);
    categorySlug = (await db.selectFrom("categories").select("slug").executeTakeFirstOrThrow()).slug;
    tagSlug = (await db.selectFrom("tags").select("slug").executeTakeFirstOrThrow()).slug;
  }, 180_000);

  afterAll(async () => {
    await close?.();
  });

  /** Runs the root's and the page's loaders for `url`; returns the queries they ran. */
  async function load(url: string, page: RouteHandler, params: Record<string, string> = {}): Promise<Recorded[]> {
    const request = new Request(`http://blog.test${url}`);
    const context = () =>
      testRouterContext({ ...boot.services, db: recording, buildId: "test" }, requestStateFor(request.url));
    recorder.reset();
    const root = await callRoute(rootLoader as RouteHandler, { request, context: context() });
    const answer = await callRoute(page, { request, context: context(), params });
    expect([root.status, answer.status], url).toEqual([200, 200]);
    return recorder.queries;
  }

  /** What `query` costs: rows read (PostgreSQL) or the full scans in its plan (SQLite). */
  async function cost(on: DB, query: Recorded): Promise<Cost> {
    const compiled = db.getExecutor().compileQuery(query.node, query.queryId);
    if (!/^\s*(select|with)\b/i.test(compiled.sql)) return { rows: 0, indexRows: 0, scans: [], sql: compiled.sql };
    if (boot.database.dialect === "postgres") {
      const explained = await on.executeQuery<{ "QUERY PLAN": { Plan: PgPlanNode }[] }>(
        CompiledQuery.raw(`explain (analyze, format json) ${compiled.sql}`, [...compiled.parameters]),
      );
      const plan = explained.rows[0]?.["QUERY PLAN"][0]?.Plan;
      return {
        rows: plan ? rowsRead(plan, CONTENT_TABLES) : 0,
        indexRows: plan ? rowsRead(plan, SEARCH_INDEX) : 0,
        scans: [],
        sql: compiled.sql,
      };
    }
    const plan = await on.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    const limited = /\blimit\b/i.test(compiled.sql);
    // The plan names tables by their alias in the query ("posts" as "p").
    const tables = new Map<string, string>();
    for (const m of compiled.sql.matchAll(/"?(\w+)"? as "?(\w+)"?/g)) tables.set(m[2] ?? "", m[1] ?? "");
    const scans = plan.rows
      .map((row) => row.detail)
      .filter((detail) => {
        const scanned = /^SCAN (\w+)/.exec(detail)?.[1];
        if (!scanned || !SCANNED_ONCE_IS_TOO_MUCH.has(tables.get(scanned) ?? scanned)) return false;
        // An ordered walk of an index that a LIMIT stops is bounded; anything else reads it all.
        return !(limited && /USING (COVERING )?INDEX/.test(detail));
      });
    return { rows: 0, indexRows: 0, scans, sql: compiled.sql };
  }

  const pages: [string, () => [string, RouteHandler, Record<string, string>]][] = [
    ["home", () => ["/", homeLoader as RouteHandler, {}]],
    ["list page 2", () => ["/posts/page/2", homeLoader as RouteHandler, { page: "2" }]],
    // 1,490 posts deep: it starts from a kept anchor (PAGE_ANCHOR_EVERY) instead of skipping them all.
    ["a deep list page", () => ["/posts/page/150", homeLoader as RouteHandler, { page: "150" }]],
    ["a post", () => [`/posts/detail/${postId}`, postLoader as RouteHandler, { id: postId }]],
    ["a post in Chinese", () => [`/zh/posts/detail/${postId}`, postLoader as RouteHandler, { id: postId }]],
    ["a category", () => [`/categories/${categorySlug}`, termLoader as RouteHandler, { slug: categorySlug }]],
    ["a tag", () => [`/tags/${tagSlug}`, termLoader as RouteHandler, { slug: tagSlug }]],
    ["search", () => ["/search?q=sourdough", searchLoader as RouteHandler, {}]],
    // A word in every post: only SEARCH_CANDIDATES rows of each list are ranked and joined.
    ["search for a common word", () => ["/search?q=the", searchLoader as RouteHandler, {}]],
    ["Chinese search", () => ["/zh/search?q=%E9%9D%A2%E5%8C%85", searchLoader as RouteHandler, {}]],
  ];

  it.each(pages)("%s", async (_name, make) => {
    const [url, loader, params] = make();
    await load(url, loader, params); // fills this instance's kept counts, as the first reader does
    const queries = await load(url, loader, params);
    expect(queries.length).toBeGreaterThan(0);
    // In order and in one transaction, as the page ran them: a search's set_config
    // (the GIN index, no parallel workers) holds for the queries after it.
    const costs = await db.transaction().execute(async (trx) => {
      const out: Cost[] = [];
      for (const query of queries) out.push(await cost(trx, query));
      return out;
    });
    const scans = costs.flatMap((c) => c.scans.map((scan) => `${scan} in: ${c.sql.slice(0, 160)}`));
    expect(scans, url).toEqual([]);
    const rows = costs.reduce((sum, c) => sum + c.rows, 0);
    const heaviest = [...costs].sort((a, b) => b.rows - a.rows)[0];
    expect(rows, `${url}: heaviest ${heaviest?.rows} rows in ${heaviest?.sql.slice(0, 200)}`).toBeLessThanOrEqual(
      ROW_BUDGET,
    );
    const indexRows = costs.reduce((sum, c) => sum + c.indexRows, 0);
    expect(indexRows, `${url}: rows read from the search index`).toBeLessThanOrEqual(SEARCH_INDEX_BUDGET);
  });
});
