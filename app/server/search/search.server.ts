import { type RawBuilder, SqliteAdapter, sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { resultSnippet } from "./snippet.server.ts";
import { snippetTexts } from "./text.server.ts";
import { queryTokens } from "./tokenize.server.ts";

export interface SearchResult {
  id: string;
  /** Plain text (escape it like any text). */
  title: string;
  /** Escaped text with the matches in <mark>: no other markup, safe to insert as HTML. */
  snippetHtml: string;
  /** The language of this version of the post. */
  locale: Locale;
  /** True when the version shown is not in the visitor's language. */
  isFallback: boolean;
  publishedAt: string | null;
}

export interface SearchPage {
  items: SearchResult[];
  /**
   * The posts found among the ranked candidates (SEARCH_CANDIDATES rows of each list);
   * with `capped` more rows matched than were ranked, so more posts may match.
   */
  total: number;
  capped: boolean;
  page: number;
  pageSize: number;
  /** At least 1, so page 1 always exists (an empty one when nothing matched). */
  pageCount: number;
  /** The tokens searched for; empty when the query had nothing searchable. */
  tokens: string[];
}

/** Column weights: a match in the title counts most, then the summary, then the body. */
const WEIGHTS = { title: 10, summary: 4, body: 1 } as const;

/**
 * How many index rows (one per post and language) a search ranks at most from each of
 * its two lists: the most recently indexed rows matching anywhere, and the most recently
 * indexed rows matching in a title or summary. A word found in nearly every post of a
 * large blog then costs about what it costs on a small one, and an older post with the
 * word in its title still competes. When more rows match, the page says "more than".
 */
export const SEARCH_CANDIDATES = 200;

function isSqlite(db: DB): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * Common table expressions ending in "hits": the candidate rows matching every token, one
 * row per post and language, with a score (higher is better) and `capped` (true when
 * more rows matched than were ranked). Tokens
 * are always bound parameters. For FTS5 each token is a quoted phrase (a `"` inside is
 * doubled), so nothing in a query is FTS5 syntax; for PostgreSQL each becomes
 * phraseto_tsquery('simple', token), and they are joined with &&.
 *
 * The engine picks the candidates with a LIMIT (FTS5 walks its doclists newest rowid
 * first; PostgreSQL probes its GIN indexes recency bucket by bucket, newest first: see
 * newestMatches) and scores only them; the candidates are then joined to their posts (published, not in
 * the trash) one key lookup each; an index row stands for its translation (reindexPost
 * follows every change of one), and only the page's rows join their texts. On SQLite the joins are written as CROSS JOINs,
 * which fixes their order: the planner otherwise walked every published post for each
 * match.
 */
function hitsCtes(db: DB, tokens: readonly string[], candidates: number): RawBuilder<unknown> {
  if (isSqlite(db)) {
    const match = tokens.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");
    const head = `{title summary} : (${match})`;
    const bm25 = sql`-bm25("postSearchFts", ${sql.lit(WEIGHTS.title)}, ${sql.lit(WEIGHTS.summary)}, ${sql.lit(WEIGHTS.body)})`;
    // "main": the newest matches, one more than are ranked (whether more matched), scored
    // as FTS5 walks them newest first. "cut": the rowid of its oldest ranked row, or 0
    // when fewer rows matched than are ranked (then every title or summary match is
    // already among them). The second list is the newest title or summary matches
    // older than the cut, down to the rowid of the SEARCH_CANDIDATES-th newest one,
    // which is only looked up when the cut is not 0.
    return sql`"main" as materialized (
        select "rowid" as "id", ${bm25} as "score" from "postSearchFts"
        where "postSearchFts" match ${match} order by "rowid" desc limit ${candidates + 1}
      ),
      "cut" as materialized (
        select case when count(*) >= ${candidates}
            then (select "id" from "main" order by "id" desc limit 1 offset ${candidates - 1}) else 0 end as "floor",
          count(*) > ${candidates} as "capped"
        from "main"
      ),
      "candidates" as materialized (
        select "id", "score" from "main" where "id" >= (select "floor" from "cut")
        union all
        select "rowid" as "id", ${bm25} as "score" from "postSearchFts"
        where "postSearchFts" match ${head} and "rowid" < (select "floor" from "cut")
          and "rowid" >= case when (select "floor" from "cut") = 0 then 0
            else coalesce((select "rowid" from "postSearchFts" where "postSearchFts" match ${head}
              order by "rowid" desc limit 1 offset ${candidates - 1}), 0) end
      ),
      "hits" as (select s."postId" as "postId", s."locale" as "locale", p."publishedAt" as "publishedAt", c."score" as "score",
        (select "capped" from "cut") as "capped"
      from "candidates" c
      cross join "postSearch" s indexed by "postSearch_keys"
      cross join "posts" p
      where s."id" = c."id" and p."id" = s."postId"
        and p."status" = 'published' and p."deletedAt" is null)`;
  }
  const query = sql.join(
    tokens.map((t) => sql`phraseto_tsquery('simple'::regconfig, ${t})`),
    sql` && `,
  );
  // The first list takes one row more than it ranks: its count says whether more matched.
  // When it holds no more, every title or summary match is in it and the second list is
  // skipped. Otherwise the newest title or summary matches down to the first list's
  // oldest candidate ("cut") are its own ones ("inHead" of them), so the second list
  // only looks below the cut, for as many more as make SEARCH_CANDIDATES: none for a
  // word found in the titles of all its newest matches.
  return sql`"q" as (select ${query} as "query",
      (select s."bucket"[1] from "postSearch" s order by s."seq" desc limit 1) as "top"),
    "newest" as materialized (${newestMatches({ vector: "searchVector", limit: sql.lit(candidates + 1) })}),
    "capped" as (select count(*) > ${candidates} as "capped" from "newest"),
    "cut" as (
      select min(n."seq") as "seq", ${candidates} - count(*) filter (where n."inHead") as "wanted",
        (select s."bucket"[1] from "postSearch" s where s."seq" = min(n."seq")) as "bucket"
      from (select n."seq", n."inHead" from "newest" n order by n."seq" desc limit ${candidates}) n
    ),
    "newestHead" as materialized (${newestMatches({
      vector: "headVector",
      limit: sql`(select "wanted" from "cut")`,
      top: sql`(select "bucket" from "cut")`,
      below: sql`(select "seq" from "cut")`,
      gate: sql`(select "capped" from "capped")`,
    })}),
    "candidates" as (
      (select n."postId", n."locale", n."score" from "newest" n order by n."seq" desc limit ${candidates})
      union all
      select h."postId", h."locale", h."score" from "newestHead" h
    ),
    "hits" as (select c."postId" as "postId", c."locale" as "locale", p."publishedAt" as "publishedAt",
      c."score" as "score", k."capped" as "capped"
    from "candidates" c
    cross join "capped" k
    join "posts" p on p."id" = c."postId"
    where p."status" = 'published' and p."deletedAt" is null)`;
}

/**
 * PostgreSQL: the spans of recency buckets probed in turn, as [from, to] buckets back from
 * the newest one (a bucket is 512 rows in the order they were written; the newest one may
 * have just begun). A word in nearly every post fills its candidates from the first
 * spans; a rarer one widens span by span, the last ones four times the ones before; the
 * rows older than the last span are read in one go, only when all of these held too few
 * matches: a word in fewer than one row in 160 of the newest 32,768.
 */
const BUCKET_SPANS: readonly (readonly [number, number])[] = [
  [0, 0],
  [1, 1],
  [2, 3],
  [4, 15],
  [16, 63],
];

/**
 * PostgreSQL: the newest `limit` rows (by "seq", the order rows were written) whose
 * `vector` matches the query of "q", as ("seq", "postId", "locale", "score"). GIN returns
 * a word's matches in no order, so each span of recency buckets is one probe of the
 * index with the query and the span's buckets ("bucket" is the index's second column):
 * it meets only the index entries of rows in those buckets. The probes run newest span
 * first (Append runs its parts in order) and the LIMIT stops them once enough rows
 * matched: older spans are then never read. A probe whose span is older than the first
 * bucket, or whose `gate` is false, is skipped without touching the index.
 */
function newestMatches(list: {
  vector: "searchVector" | "headVector";
  limit: RawBuilder<unknown>;
  /** The bucket the spans count back from: the newest one unless given. */
  top?: RawBuilder<unknown>;
  /** Only rows written before this "seq". */
  below?: RawBuilder<unknown>;
  gate?: RawBuilder<unknown>;
}): RawBuilder<unknown> {
  const { vector, limit } = list;
  const top = list.top ?? sql`(select "top" from "q")`;
  const gate = list.gate ?? sql`true`;
  // "+ 0": a bound the index on "seq" cannot serve, so the planner never ANDs that
  // index's whole range into a probe's bitmap; it is tested on the rows a probe found.
  const below = list.below ? sql` and s."seq" + 0 < ${list.below}` : sql``;
  const matches = sql`s.${sql.ref(vector)} @@ (select "query" from "q")${below}`;
  const probes = BUCKET_SPANS.map(
    ([from, to]) => sql`(select s."seq", s."postId", s."locale", s."headVector" from "postSearch" s
      where ${top} >= ${sql.lit(from)} and ${gate} and ${matches}
        and s."bucket" && array(select generate_series(greatest(${top} - ${sql.lit(to)}, 0), ${top} - ${sql.lit(from)}))
      order by s."seq" desc limit ${limit})`,
  );
  const oldest = BUCKET_SPANS.at(-1)?.[1] ?? 0;
  probes.push(sql`(select s."seq", s."postId", s."locale", s."headVector" from "postSearch" s
      where ${top} > ${sql.lit(oldest)} and ${gate} and ${matches} and s."bucket"[1] < ${top} - ${sql.lit(oldest)}
      order by s."seq" desc limit ${limit})`);
  // ts_rank's weights are listed {D, C, B, A}: summary (B), title (A). The rank reads only
  // the small title-and-summary vector, so no match's long body vector is detoasted
  // (body-only matches tie at the bottom and fall back to newest first). The second list
  // only looks below the first one's cut, so no row is in both: they are joined by UNION ALL.
  const weights = `{0, 0, ${WEIGHTS.summary / WEIGHTS.title}, 1}`;
  return sql`select u."seq", u."postId", u."locale",
      ts_rank(${weights}::float4[], u."headVector", (select "query" from "q")) as "score",
      u."headVector" @@ (select "query" from "q") as "inHead"
    from (${sql.join(probes, sql` union all `)}) u limit ${limit}`;
}

/**
 * Runs a search query; on PostgreSQL in a transaction that tells the planner to find
 * matches through the GIN index. For a common word it would otherwise scan the table
 * and test every row's vector, detoasting each post's whole body (~290 ms for "the"
 * over 10,000 posts, against ~60 ms through the index): the planner does not count
 * that cost. Parallel workers are off too, so the probes of newestMatches run one after
 * the other and stop at the first that suffice.
 */
function withIndexedMatching<T>(db: DB, run: (q: DB) => Promise<T>): Promise<T> {
  if (isSqlite(db)) return run(db);
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('enable_seqscan', 'off', true), set_config('max_parallel_workers_per_gather', '0', true)`.execute(
      trx,
    );
    return run(trx);
  });
}

/** `capped` as each driver returns it: 0/1 from SQLite, a boolean from PostgreSQL. */
type Capped = boolean | number | bigint;

function isCapped(value: Capped): boolean {
  return value === true || Number(value) === 1;
}

interface Row {
  id: string;
  locale: Locale;
  publishedAt: string | null;
  title: string;
  summary: string;
  bodyMarkdown: string;
  bodyHtml: string;
}

/**
 * Full-text search over published posts that are not in the trash, in both
 * languages. A post matching in the visitor's language is shown in it; one
 * matching only in the other language is shown in that one (`isFallback`). Every
 * token of the query must match (title, summary or body); results are ranked
 * with title matches first, then summary, then body, newest first on ties.
 * `page` past the last page gives no items (the caller decides about a 404).
 */
export async function searchPosts(
  db: DB,
  opts: { q: string; locale: Locale; page: number; pageSize: number; candidates?: number },
): Promise<SearchPage> {
  const { locale, pageSize } = opts;
  const page = Math.max(1, Math.trunc(opts.page) || 1);
  const tokens = queryTokens(opts.q);
  const empty: SearchPage = { items: [], total: 0, capped: false, page, pageSize, pageCount: 1, tokens };
  if (tokens.length === 0) return empty;

  // One version per post: the visitor's language when it matched, else the other. A post
  // has one index row per language, so at most one row of it is in the visitor's
  // language; SQLite takes a group's other columns from the row holding its max(), which
  // is that row when it matched (one sort of the hits, where a window function took two).
  const pick = isSqlite(db)
    ? sql`select h."postId", h."locale", h."score", h."publishedAt", h."capped", 1 as "rn",
          max(h."locale" = ${locale}) as "own"
        from "hits" h group by h."postId"`
    : sql`select h."postId", h."locale", h."score", h."publishedAt", h."capped",
          row_number() over (
            partition by h."postId"
            order by case when h."locale" = ${locale} then 0 else 1 end, h."score" desc
          ) as "rn"
        from "hits" h`;
  const ranked = sql`with ${hitsCtes(db, tokens, opts.candidates ?? SEARCH_CANDIDATES)},
    "ranked" as (${pick})`;

  // One pass over the matches: the page's ids are ranked on light rows that also
  // carry the total, and only the page's posts bring their text along.
  const { rows } = await withIndexedMatching(db, (q) =>
    sql<Row & { total: number | string; capped: Capped }>`${ranked},
    "top" as (
      select r."postId", r."locale", r."score", r."publishedAt", r."capped", count(*) over () as "total"
      from "ranked" r
      where r."rn" = 1
      order by r."score" desc, r."publishedAt" desc, r."postId" desc
      limit ${pageSize} offset ${(page - 1) * pageSize}
    )
    select x."postId" as "id", x."locale" as "locale", x."publishedAt" as "publishedAt", x."total" as "total",
      x."capped" as "capped",
      t."title" as "title", t."summary" as "summary", t."bodyMarkdown" as "bodyMarkdown", t."bodyHtml" as "bodyHtml"
    from "top" x
    join "postTranslations" t on t."postId" = x."postId" and t."locale" = x."locale"
    order by x."score" desc, x."publishedAt" desc, x."postId" desc`.execute(q),
  );
  // A page past the end has no row to carry the total: it is counted on its own then.
  const first =
    rows[0] ??
    (
      await withIndexedMatching(db, (q) =>
        sql<{ total: number | string; capped: Capped }>`${ranked}
          select count(*) as "total", coalesce(max(case when "capped" then 1 else 0 end), 0) as "capped"
          from "ranked" where "rn" = 1`.execute(q),
      )
    ).rows[0];
  const total = Number(first?.total ?? 0);
  const capped = isCapped(first?.capped ?? false);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0 || page > pageCount) return { ...empty, total, capped, pageCount };

  const items = rows.map(
    (r): SearchResult => ({
      id: r.id,
      title: r.title,
      snippetHtml: resultSnippet({ summary: r.summary, ...snippetTexts(r) }, tokens),
      locale: r.locale,
      isFallback: r.locale !== locale,
      publishedAt: r.publishedAt,
    }),
  );
  return { items, total, capped, page, pageSize, pageCount, tokens };
}
