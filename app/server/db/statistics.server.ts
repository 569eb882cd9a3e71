import { sql } from "kysely";
import type { Logger } from "pino";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import type { OpenDatabase } from "./db.server.ts";

/**
 * PostgreSQL plans every query from the statistics ANALYZE keeps per table. A table
 * that has never been analysed counts as nearly empty, so after a seed, an import or a
 * restore of 10,000 posts a list page scanned every post and probed its translations
 * one by one (~100 ms where it takes ~1 ms with statistics). Autovacuum would analyse
 * it, but only a minute or more later, and some servers run with it off. SQLite plans
 * from its indexes alone unless ANALYZE was run, so it needs nothing here.
 */

/** Re-analyse a table once this many rows plus this share of its size changed (autovacuum's defaults). */
const CHANGED_ROWS = 50;
const CHANGED_SHARE = 0.1;

/** How often the job looks for tables whose statistics are missing or stale. */
export const STATISTICS_INTERVAL_MS = 10 * 60_000;
export const STATISTICS_LEASE = "table-statistics";

/**
 * The tables of the current schema whose statistics are missing (never analysed:
 * `reltuples` is -1) or stale (more rows changed since the last ANALYZE than
 * autovacuum would wait for). Always empty on SQLite.
 */
export async function staleTables(database: OpenDatabase): Promise<string[]> {
  if (database.dialect !== "postgres") return [];
  const rows = await sql<{ name: string }>`
    select c.relname as name
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where c.relkind = 'r' and n.nspname = current_schema()
      and (c.reltuples < 0
        or coalesce(s.n_mod_since_analyze, 0) > ${CHANGED_ROWS} + ${CHANGED_SHARE} * c.reltuples)
    order by c.relname`.execute(database.db);
  return rows.rows.map((r) => r.name);
}

/**
 * Analyses the tables whose statistics are missing or stale (every table with
 * `all`), on PostgreSQL; returns the tables analysed.
 */
export async function refreshStatistics(database: OpenDatabase, opts: { all?: boolean } = {}): Promise<string[]> {
  if (database.dialect !== "postgres") return [];
  if (opts.all) {
    await sql`vacuum (analyze)`.execute(database.db);
    return ["*"];
  }
  const tables = await staleTables(database);
  // VACUUM also marks the table's pages all-visible, so an index-only scan (a list's
  // page of ids, its count) need not visit the table.
  for (const table of tables) await sql`vacuum (analyze) ${sql.table(table)}`.execute(database.db);
  return tables;
}

/** Keeps the planner's statistics current on the holder of the job's lease: at start and every interval. */
export function startStatisticsRefresh(
  database: OpenDatabase,
  log: Logger,
  opts: { intervalMs?: number; holder?: string } = {},
): LeasedJob | null {
  if (database.dialect !== "postgres") return null;
  return startLeasedJob(database.db, log, {
    name: STATISTICS_LEASE,
    intervalMs: opts.intervalMs ?? STATISTICS_INTERVAL_MS,
    ...(opts.holder ? { holder: opts.holder } : {}),
    run: async () => {
      const started = Date.now();
      const tables = await refreshStatistics(database);
      if (tables.length > 0) log.info({ tables, ms: Date.now() - started }, "refreshed planner statistics");
    },
  });
}
