import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDialect } from "../../../tests/setup/test-db.ts";
import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { searchPosts } from "./search.server.ts";
import { queryTokens } from "./tokenize.server.ts";

// Issue 50: SQLite search was reshaped to cost less per candidate (the newest matches in one
// walk that also says whether more matched, the older title list's floor looked up only when
// needed, one post's version picked by a GROUP BY instead of a window). Its results must not
// change: this compares every page of a fixed query set with the query it replaced, kept here
// as the reference, over a generated corpus where both candidate lists fill up.

let database: TestDatabase;
let db: DB;

const POSTS = 360;
/** Small lists, so that a few hundred posts overflow both of them as 10,000 overflow 200. */
const CANDIDATES = 24;

/** A fixed pseudo-random sequence (a linear congruential generator), the same on every run. */
function randoms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

// Word frequencies from one post in two to one in forty; "kiwi" is common in bodies and rare in
// titles, "lychee" the other way round, so the second list matters for both.
const BODY_WORDS: [string, number][] = [
  ["apple", 0.5],
  ["kiwi", 0.6],
  ["mango", 0.2],
  ["lychee", 0.05],
  ["quince", 0.025],
  ["苹果", 0.4],
  ["芒果", 0.1],
];
const HEAD_WORDS: [string, number][] = [
  ["apple", 0.2],
  ["kiwi", 0.02],
  ["mango", 0.1],
  ["lychee", 0.3],
  ["quince", 0.05],
  ["苹果", 0.2],
  ["芒果", 0.3],
];
const QUERIES = [
  "apple",
  "kiwi",
  "mango",
  "lychee",
  "quince",
  "apple kiwi",
  "mango lychee",
  "苹果",
  "芒果",
  "苹果 apple",
];

function words(next: () => number, table: [string, number][], filler: string, length: number): string {
  const out: string[] = [];
  for (let i = 0; i < length; i++) out.push(filler);
  for (const [word, p] of table) {
    // Up to three occurrences at random places, so term frequencies differ.
    for (let k = 0; k < 3; k++) if (next() < p) out.splice(Math.floor(next() * out.length), 0, word);
  }
  return out.join(" ");
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  const next = randoms(50);
  const now = new Date(Date.UTC(2026, 0, 1)).toISOString();
  const key = (i: number) => `order-${String(i).padStart(4, "0")}`;
  for (let from = 0; from < POSTS; from += 60) {
    const batch = Array.from({ length: 60 }, (_, k) => from + k);
    await db
      .insertInto("posts")
      .values(
        batch.map((i) => ({
          id: key(i),
          slug: key(i),
          authorId: null,
          // Every seventh post a draft, every eleventh in the trash: found by the index, never shown.
          status: i % 7 === 3 ? ("draft" as const) : ("published" as const),
          // Some posts share a date, so ties fall to the id.
          publishedAt: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 86_400_000).toISOString(),
          deletedAt: i % 11 === 5 ? now : null,
          categoryId: null,
          coverImageId: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const versions = batch.flatMap((i) => {
      const locales: Locale[] = i % 5 === 0 ? ["en"] : i % 5 === 1 ? ["zh"] : ["en", "zh"];
      return locales.map((locale) => {
        const filler = locale === "en" ? "note" : "笔记";
        return {
          postId: key(i),
          locale,
          title: words(next, HEAD_WORDS, filler, 2 + Math.floor(next() * 4)),
          summary: words(next, HEAD_WORDS, filler, Math.floor(next() * 8)),
          body: words(next, BODY_WORDS, filler, 10 + Math.floor(next() * 60)),
        };
      });
    });
    await db
      .insertInto("postTranslations")
      .values(
        versions.map((v) => ({
          postId: v.postId,
          locale: v.locale,
          title: v.title,
          summary: v.summary,
          bodyMarkdown: v.body,
          bodyHtml: `<p>${v.body}</p>`,
          seoTitle: null,
          seoDescription: null,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    // Written a batch at a time, oldest first, as reindexing writes them.
    await db
      .insertInto("postSearch")
      .values(versions.map((v) => ({ ...v, updatedAt: now })))
      .execute();
  }
}, 60_000);

afterAll(async () => {
  await database.cleanup();
});

interface Page {
  items: string[];
  total: number;
  capped: boolean;
}

/** The SQLite search query as it was before issue 50: one page's ids, the total and whether it was capped. */
async function referencePage(q: string, locale: Locale, page: number, pageSize: number): Promise<Page> {
  const tokens = queryTokens(q);
  const match = tokens.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");
  const head = `{title summary} : (${match})`;
  const bm25 = sql`-bm25("postSearchFts", 10, 4, 1)`;
  const floor = (m: string) =>
    sql`coalesce((select "rowid" from "postSearchFts" where "postSearchFts" match ${m}
      order by "rowid" desc limit 1 offset ${CANDIDATES - 1}), 0)`;
  const ranked = sql`with "candidates" as materialized (
      select "rowid" as "id", ${bm25} as "score" from "postSearchFts"
      where "postSearchFts" match ${match} and "rowid" >= ${floor(match)}
      union all
      select "rowid" as "id", ${bm25} as "score" from "postSearchFts"
      where "postSearchFts" match ${head} and "rowid" >= ${floor(head)} and "rowid" < ${floor(match)}
    ),
    "hits" as (select s."postId", s."locale", p."publishedAt", c."score",
      exists (select 1 from "postSearchFts" where "postSearchFts" match ${match}
        order by "rowid" desc limit 1 offset ${CANDIDATES}) as "capped"
      from "candidates" c join "postSearch" s on s."id" = c."id" join "posts" p on p."id" = s."postId"
      where p."status" = 'published' and p."deletedAt" is null),
    "ranked" as (select h.*, row_number() over (partition by h."postId"
        order by case when h."locale" = ${locale} then 0 else 1 end, h."score" desc) as "rn"
      from "hits" h)`;
  const rows = await sql<{ postId: string; locale: Locale; total: number; capped: number }>`${ranked}
    select r."postId", r."locale", count(*) over () as "total", r."capped" from "ranked" r where r."rn" = 1
    order by r."score" desc, r."publishedAt" desc, r."postId" desc`.execute(db);
  const all = rows.rows;
  return {
    items: all.slice((page - 1) * pageSize, page * pageSize).map((r) => `${r.postId}/${r.locale}`),
    total: all.length,
    capped: Number(all[0]?.capped ?? 0) === 1,
  };
}

describe.runIf(testDialect() === "sqlite")("SQLite search ranks as before issue 50", () => {
  it("gives every page of a fixed query set the same posts, in the same order, with the same total", async () => {
    let compared = 0;
    let cappedQueries = 0;
    for (const q of QUERIES) {
      for (const locale of ["en", "zh"] as const) {
        for (const page of [1, 2, 3, 4]) {
          const now = await searchPosts(db, { q, locale, page, pageSize: 10, candidates: CANDIDATES });
          const before = await referencePage(q, locale, page, 10);
          expect({ q, locale, page, ...before }).toEqual({
            q,
            locale,
            page,
            items: now.items.map((i) => `${i.id}/${i.locale}`),
            total: now.total,
            capped: now.capped,
          });
          compared += now.items.length;
          if (page === 1 && now.capped) cappedQueries += 1;
        }
      }
    }
    // The corpus does what it is for: most queries overflow the lists, and pages are full.
    expect(cappedQueries).toBeGreaterThanOrEqual(12);
    expect(compared).toBeGreaterThan(300);
  }, 60_000);
});
