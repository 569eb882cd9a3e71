import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { callRoute, fakeSessionAuth, testRouterContext } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { OTHER_KEY } from "../../lib/insights.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import type { Services } from "../../server/boot/context.server.ts";
import { countKey, dayOf, writeInsightBatch } from "../../server/insights/metrics.server.ts";
import type { InsightRecorder } from "../../server/insights/recorder.server.ts";
import { createPost } from "../../server/posts/posts.server.ts";
import { loader } from "./insights.tsx";
import { loader as csvLoader } from "./insights-csv.ts";
import { loader as postLoader } from "./post-insights.tsx";

// /admin/insights and its CSV export: admins only (checked by each loader, not only the
// layout), a period outside the offered ones is 400, and the figures come from the database.

const BASE = "http://blog.test";
const ADMIN = { id: "", email: "admin@example.test" };
const READER = { id: "", email: "reader@example.test" };

let database: TestDatabase;
let flushed = 0;
let postId = "";

beforeAll(async () => {
  database = await createTestDatabase();
  ADMIN.id = await insertUser(database.db, { email: ADMIN.email });
  READER.id = await insertUser(database.db, { email: READER.email });
  await addAdmins(database.db, [ADMIN.email], "cli");
  postId = await createPost(database.db, {
    slug: "read-one",
    authorId: null,
    status: "published",
    publishedAt: "2026-11-01T00:00:00.000Z",
    translations: [{ locale: "en", title: "Read one" }],
  });
  const today = dayOf(new Date());
  await writeInsightBatch(
    database.db,
    new Map([
      [countKey(today, "views", ""), 4],
      [countKey(today, "referrer", "Google"), 3],
      [countKey(today, "post", postId), 3],
      [countKey(today, "postLang", `${postId} en`), 2],
      [countKey(today, "postLang", `${postId} zh`), 1],
      [countKey(today, "postReferrer", `${postId} Google`), 3],
      // Another post's rows, one whose id starts with this one's: never mixed in.
      [countKey(today, "postLang", `${postId}x en`), 9],
    ]),
    [],
  );
});

afterAll(async () => {
  await database.cleanup();
});

function argsFor(user: typeof ADMIN | null, query = "", params: Record<string, string> = {}, path = "/admin/insights") {
  return {
    params,
    request: new Request(`${BASE}${path}${query}`, {
      headers: user ? { cookie: "inkwell.session_token=fake" } : {},
    }),
    context: testRouterContext({
      db: database.db,
      env: {
        authSecret: "s".repeat(40),
        publicUrl: BASE,
        insights: { retentionDays: 30, countryHeader: null },
      } as Services["env"],
      log: pino({ level: "silent" }),
      insights: {
        flush: async () => {
          flushed++;
        },
      } as unknown as InsightRecorder,
      auth: fakeSessionAuth(user),
    }),
  };
}

function call(
  handler: typeof loader | typeof csvLoader | typeof postLoader,
  user: typeof ADMIN | null,
  query = "",
  params: Record<string, string> = {},
  path = "/admin/insights",
) {
  return callRoute(handler, argsFor(user, query, params, path));
}

describe("insights loaders", () => {
  it("answers 403 to a reader and sends a stranger to the login page, page and CSV alike", async () => {
    expect((await call(loader, READER)).status).toBe(403);
    expect((await call(csvLoader, READER, "?table=posts")).status).toBe(403);
    const stranger = await call(loader, null);
    expect(stranger.status).toBe(302);
    expect(stranger.location).toMatch(/^\/login\?redirectTo=/);
    expect(flushed).toBe(0);
  });

  it("shows an admin the figures, and refuses a period it does not offer", async () => {
    const result = await call(loader, ADMIN, "?days=7");
    expect(result.status).toBe(200);
    const body = result.body as { report: { days: number; totals: { views: number }; referrers: unknown[] } };
    expect(body.report.days).toBe(7);
    expect(body.report.totals.views).toBe(4);
    expect(body.report.referrers).toEqual([{ key: "Google", count: 3 }]);
    expect(flushed).toBe(1);
    expect((await call(loader, ADMIN, "?days=12")).status).toBe(400);
    expect((await call(csvLoader, ADMIN, "?table=users")).status).toBe(400);
  });

  it("exports a table as CSV, the chart's days when none is named", async () => {
    expect((await call(csvLoader, ADMIN)).status).toBe(200);
    const result = await call(csvLoader, ADMIN, "?table=referrers&days=30");
    expect(result.status).toBe(200);
    expect(result.headers?.get("content-type")).toBe("text/csv; charset=utf-8");
  });

  it("lists a day's entries past its limit as one row, named '(other)' in the CSV", async () => {
    await database.db
      .insertInto("insightCounts")
      .values({ day: dayOf(new Date()), metric: "notFound", key: OTHER_KEY, count: 7 })
      .execute();
    const page = await call(loader, ADMIN, "?days=7");
    expect((page.body as { report: { notFound: unknown[] } }).report.notFound).toContainEqual({
      key: OTHER_KEY,
      count: 7,
    });
    const response = (await csvLoader(argsFor(ADMIN, "?table=notFound&days=7") as never)) as Response;
    expect(await response.text()).toContain("(other),7");
  });

  it("shows one post's views, languages and referrers to an admin only, and exports them", async () => {
    const path = `/admin/insights/posts/${postId}`;
    expect((await call(postLoader, READER, "", { id: postId }, path)).status).toBe(403);
    const result = await call(postLoader, ADMIN, "?days=7", { id: postId }, path);
    expect(result.status).toBe(200);
    const body = result.body as {
      title: string;
      report: { views: number; series: unknown[]; languages: unknown[]; referrers: unknown[]; sources: unknown[] };
    };
    expect(body.title).toBe("Read one");
    expect(body.report.views).toBe(3);
    expect(body.report.series).toHaveLength(7);
    expect(body.report.languages).toEqual([
      { key: "en", count: 2 },
      { key: "zh", count: 1 },
    ]);
    expect(body.report.referrers).toEqual([{ key: "Google", count: 3 }]);
    expect(body.report.sources).toEqual([]);
    expect((await call(postLoader, ADMIN, "?days=5", { id: postId }, path)).status).toBe(400);
    expect(
      (await call(postLoader, ADMIN, "", { id: "no-such-post" }, "/admin/insights/posts/no-such-post")).status,
    ).toBe(404);

    const csv = await call(csvLoader, ADMIN, `?table=languages&days=30&post=${postId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers?.get("content-disposition")).toContain(`insights-post-${postId}-languages`);
    expect((await call(csvLoader, READER, `?table=languages&post=${postId}`)).status).toBe(403);
    // The site-wide tables are not a post's; an unknown post is not found.
    expect((await call(csvLoader, ADMIN, `?table=posts&post=${postId}`)).status).toBe(400);
    expect((await call(csvLoader, ADMIN, "?table=days&post=no-such-post")).status).toBe(404);
  });
});
