import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../../../tests/setup/fixtures-db.ts";
import { callRoute, testRouterContext } from "../../../tests/setup/router-context.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import type { Services } from "../../server/context.server.ts";
import type { InsightRecorder } from "../../server/insights/recorder.server.ts";
import { addAdmins } from "../../server/repos/admins.server.ts";
import { countKey, dayOf, writeInsightBatch } from "../../server/repos/insights.server.ts";
import { loader } from "./insights.tsx";
import { loader as csvLoader } from "./insights-csv.ts";

// /admin/insights and its CSV export: admins only (checked by each loader, not only the
// layout), a period outside the offered ones is 400, and the figures come from the database.

const BASE = "http://blog.test";
const ADMIN = { id: "", email: "admin@example.test" };
const READER = { id: "", email: "reader@example.test" };

let database: TestDatabase;
let flushed = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  ADMIN.id = await insertUser(database.db, { email: ADMIN.email });
  READER.id = await insertUser(database.db, { email: READER.email });
  await addAdmins(database.db, [ADMIN.email], "cli");
  const today = dayOf(new Date());
  await writeInsightBatch(
    database.db,
    new Map([
      [countKey(today, "views", ""), 4],
      [countKey(today, "referrer", "Google"), 3],
    ]),
    [],
  );
});

afterAll(async () => {
  await database.cleanup();
});

function call(handler: typeof loader | typeof csvLoader, user: typeof ADMIN | null, query = "") {
  return callRoute(handler, {
    request: new Request(`${BASE}/admin/insights${query}`, {
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
      auth: {
        api: {
          getSession: async () =>
            user
              ? {
                  user: { ...user, name: "", emailVerified: true, image: null },
                  session: { id: "s", userId: user.id },
                }
              : null,
        },
      } as unknown as Services["auth"],
    }),
  });
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
});
