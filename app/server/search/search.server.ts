import { type RawBuilder, SqliteAdapter, sql } from "kysely";
import type { DB } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { resultSnippet } from "./snippet.server.ts";
import { bodyText } from "./text.server.ts";
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
  total: number;
  page: number;
  pageSize: number;
  /** At least 1, so page 1 always exists (an empty one when nothing matched). */
  pageCount: number;
  /** The tokens searched for; empty when the query had nothing searchable. */
  tokens: string[];
}

/** Column weights: a match in the title counts most, then the summary, then the body. */
const WEIGHTS = { title: 10, summary: 4, body: 1 } as const;

function isSqlite(db: DB): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * The posts matching every token, one row per post and language, with a score
 * (higher is better). Tokens are always bound parameters. For FTS5 each token is
 * a quoted phrase (a `"` inside is doubled), so nothing in a query is FTS5 syntax;
 * for PostgreSQL each becomes phraseto_tsquery('simple', token), and they are
 * joined with &&. On SQLite the matches are joined back to "postSearch" through the
 * narrow "postSearch_keys" index (the table's rows carry whole bodies, one page each).
 */
function hitsQuery(db: DB, tokens: readonly string[]): RawBuilder<unknown> {
  if (isSqlite(db)) {
    const match = tokens.map((t) => `"${t.replaceAll('"', '""')}"`).join(" ");
    return sql`select s."postId" as "postId", s."locale" as "locale", p."publishedAt" as "publishedAt",
        -bm25("postSearchFts", ${sql.lit(WEIGHTS.title)}, ${sql.lit(WEIGHTS.summary)}, ${sql.lit(WEIGHTS.body)}) as "score"
      from "postSearchFts"
      join "postSearch" s indexed by "postSearch_keys" on s."id" = "postSearchFts"."rowid"
      join "posts" p on p."id" = s."postId"
      join "postTranslations" t on t."postId" = s."postId" and t."locale" = s."locale"
      where "postSearchFts" match ${match}
        and p."status" = 'published' and p."deletedAt" is null`;
  }
  const query = sql.join(
    tokens.map((t) => sql`phraseto_tsquery('simple'::regconfig, ${t})`),
    sql` && `,
  );
  // ts_rank's weights are listed {D, C, B, A}: summary (B), title (A). The GIN index over
  // the whole vector finds the rows; the rank reads only the small title-and-summary
  // vector, so no match's long body vector is detoasted (body-only matches tie at the
  // bottom and fall back to newest first).
  const weights = `{0, 0, ${WEIGHTS.summary / WEIGHTS.title}, 1}`;
  return sql`select s."postId" as "postId", s."locale" as "locale", p."publishedAt" as "publishedAt",
      ts_rank(${weights}::float4[], s."headVector", q."query") as "score"
    from "postSearch" s
    cross join (select ${query} as "query") q
    join "posts" p on p."id" = s."postId"
    join "postTranslations" t on t."postId" = s."postId" and t."locale" = s."locale"
    where s."searchVector" @@ q."query"
      and p."status" = 'published' and p."deletedAt" is null`;
}

/**
 * Runs a search query; on PostgreSQL in a transaction that tells the planner to find
 * matches through the GIN index. For a common word it would otherwise scan the table
 * and test every row's vector, detoasting each post's whole body (~290 ms for "the"
 * over 10,000 posts, against ~60 ms through the index): the planner does not count
 * that cost.
 */
function withIndexedMatching<T>(db: DB, run: (q: DB) => Promise<T>): Promise<T> {
  if (isSqlite(db)) return run(db);
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    return run(trx);
  });
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
  opts: { q: string; locale: Locale; page: number; pageSize: number },
): Promise<SearchPage> {
  const { locale, pageSize } = opts;
  const page = Math.max(1, Math.trunc(opts.page) || 1);
  const tokens = queryTokens(opts.q);
  const empty: SearchPage = { items: [], total: 0, page, pageSize, pageCount: 1, tokens };
  if (tokens.length === 0) return empty;

  // One version per post: the visitor's language when it matched, else the other.
  const ranked = sql`with "hits" as (${hitsQuery(db, tokens)}),
    "ranked" as (
      select h."postId", h."locale", h."score", h."publishedAt",
        row_number() over (
          partition by h."postId"
          order by case when h."locale" = ${locale} then 0 else 1 end, h."score" desc
        ) as "rn"
      from "hits" h
    )`;

  // One pass over the matches: the page's ids are ranked on light rows that also
  // carry the total, and only the page's posts bring their text along.
  const { rows } = await withIndexedMatching(db, (q) =>
    sql<Row & { total: number | string }>`${ranked},
    "top" as (
      select r."postId", r."locale", r."score", r."publishedAt", count(*) over () as "total"
      from "ranked" r
      where r."rn" = 1
      order by r."score" desc, r."publishedAt" desc, r."postId" desc
      limit ${pageSize} offset ${(page - 1) * pageSize}
    )
    select x."postId" as "id", x."locale" as "locale", x."publishedAt" as "publishedAt", x."total" as "total",
      t."title" as "title", t."summary" as "summary", t."bodyMarkdown" as "bodyMarkdown", t."bodyHtml" as "bodyHtml"
    from "top" x
    join "postTranslations" t on t."postId" = x."postId" and t."locale" = x."locale"
    order by x."score" desc, x."publishedAt" desc, x."postId" desc`.execute(q),
  );
  // A page past the end has no row to carry the total: it is counted on its own then.
  const total =
    rows.length > 0
      ? Number(rows[0]?.total ?? 0)
      : Number(
          (
            await withIndexedMatching(db, (q) =>
              sql<{ n: number | string }>`${ranked} select count(*) as "n" from "ranked" where "rn" = 1`.execute(q),
            )
          ).rows[0]?.n ?? 0,
        );
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  if (total === 0 || page > pageCount) return { ...empty, total, pageCount };

  const items = rows.map(
    (r): SearchResult => ({
      id: r.id,
      title: r.title,
      snippetHtml: resultSnippet({ summary: r.summary, body: bodyText(r) }, tokens),
      locale: r.locale,
      isFallback: r.locale !== locale,
      publishedAt: r.publishedAt,
    }),
  );
  return { items, total, page, pageSize, pageCount, tokens };
}
