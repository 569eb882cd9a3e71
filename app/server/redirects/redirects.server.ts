import { sql } from "kysely";
import { fromKey, isSitePath, type RedirectStatus } from "../../lib/redirects.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import { newId } from "../platform/ids.server.ts";
import { type FromRefusal, redirectFromRefusal } from "./reserved.server.ts";
import { type Plan, type PlanError, planRule, type RedirectRule, RuleSet, splitFrom } from "./rules.server.ts";

// The redirects table (docs/decisions/012-redirects.md). Every write goes through
// `redirectFromRefusal` (never from a path the site answers itself, nor from the address of a
// post, term, series or author that exists) and `planRule`: rows are kept one hop long and
// never loop, whoever writes them (the admin form, the CSV import, the importers). After a write, the caller tells every instance
// (`REDIRECTS_CHANGED`) so the HTTP step reloads its map.

/** The content-change tag of a redirects write: instances reload their map, no page is dropped. */
export const REDIRECTS_CHANGED = ["redirects"] as const;

export interface RedirectRow {
  id: string;
  /** As stored: the normalised path, with its query ("/old", "/?p=123"). */
  from: string;
  to: string;
  status: RedirectStatus;
  external: boolean;
  hits: number;
  lastHitAt: string | null;
  source: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}

/** A redirect to save: `from` already normalised (normalizeFrom), `to` already checked (checkTarget). */
export interface RedirectInput {
  fromPath: string;
  fromQuery: string;
  to: string;
  status: RedirectStatus;
  external: boolean;
  note?: string;
  source?: string;
}

const COLUMNS = [
  "id",
  "fromPath",
  "toPath",
  "status",
  "external",
  "hits",
  "lastHitAt",
  "source",
  "note",
  "createdAt",
  "updatedAt",
] as const;

interface StoredRow {
  id: string;
  fromPath: string;
  toPath: string;
  status: number;
  external: number;
  hits: number | string | bigint;
  lastHitAt: string | null;
  source: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}

function toRow(r: StoredRow): RedirectRow {
  return {
    id: r.id,
    from: r.fromPath,
    to: r.toPath,
    status: r.status === 302 ? 302 : 301,
    external: r.external === 1,
    hits: Number(r.hits),
    lastHitAt: r.lastHitAt,
    source: r.source,
    note: r.note,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function toRule(r: Pick<StoredRow, "id" | "fromPath" | "toPath" | "status" | "external">): RedirectRule {
  const { path, query } = splitFrom(r.fromPath);
  return { id: r.id, fromPath: path, fromQuery: query, to: r.toPath, status: r.status, external: r.external === 1 };
}

/** Every rule, for the HTTP step's map and for the checks a write makes. */
export async function loadRules(db: DB): Promise<RedirectRule[]> {
  const rows = await db.selectFrom("redirects").select(["id", "fromPath", "toPath", "status", "external"]).execute();
  return rows.map(toRule);
}

/** The admin list, by from-path; `q` matches from, to or the note. */
export async function listRedirectsForAdmin(
  db: DB,
  opts: { q?: string; page: number; pageSize: number },
): Promise<AdminPage<RedirectRow>> {
  const q = opts.q?.trim() ?? "";
  const base = db
    .selectFrom("redirects")
    .$if(q !== "", (qb) => qb.where(containsText(["fromPath", "toPath", "note"], q)));
  return adminPage(await countRows(base), opts, async (limit, offset) =>
    (await base.select(COLUMNS).orderBy("fromPath").orderBy("id").limit(limit).offset(offset).execute()).map(toRow),
  );
}

export async function getRedirect(db: DB, id: string): Promise<RedirectRow | undefined> {
  const row = await db.selectFrom("redirects").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Every row, for the CSV export. */
export async function redirectsForExport(db: DB): Promise<RedirectRow[]> {
  return (await db.selectFrom("redirects").select(COLUMNS).orderBy("fromPath").orderBy("id").execute()).map(toRow);
}

export async function deleteRedirect(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("redirects").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Writes a plan: the rule itself (inserted or updated) and the rows re-pointed past it. */
async function writePlan(
  db: DB,
  plan: Plan,
  input: { note: string | undefined; source: string; isNew: boolean },
  now: string,
): Promise<void> {
  const { rule } = plan;
  const values = {
    fromPath: fromKey({ path: rule.fromPath, query: rule.fromQuery }),
    toPath: rule.to,
    status: rule.status,
    external: rule.external ? 1 : 0,
    // No note given (a CSV without that column): an update keeps the one stored.
    ...(input.note !== undefined ? { note: input.note } : {}),
    updatedAt: now,
  };
  if (input.isNew) {
    await db
      .insertInto("redirects")
      .values({ id: rule.id, ...values, note: input.note ?? "", source: input.source, createdAt: now })
      .execute();
  } else {
    await db.updateTable("redirects").set(values).where("id", "=", rule.id).execute();
  }
  for (const moved of plan.repointed) {
    await db
      .updateTable("redirects")
      .set({ toPath: moved.to, external: moved.external ? 1 : 0, updatedAt: now })
      .where("id", "=", moved.id)
      .execute();
  }
}

/** Why a redirect is not saved: its from-path belongs to the site, or the rows already there. */
export type SaveRefusal = FromRefusal | PlanError;

export type SaveOutcome = { ok: true; id: string; to: string; repointed: number } | { ok: false; error: SaveRefusal };

/**
 * Adds a redirect (no `id`) or changes one; inside a transaction. Its target is followed
 * to where a visitor finally lands and stored as that (chains are flattened), rows that led to
 * its from-path are re-pointed to it, and a loop, a redirect to itself or a from-path another
 * row has are refused with nothing written. `undefined` when `id` no longer exists.
 */
export async function saveRedirect(db: DB, input: RedirectInput, id?: string): Promise<SaveOutcome | undefined> {
  const rules = new RuleSet(await loadRules(db));
  const replaces = id ? rules.getById(id) : undefined;
  if (id && !replaces) return undefined;
  const refusal = await redirectFromRefusal(db, { path: input.fromPath, query: input.fromQuery });
  if (refusal) return { ok: false, error: refusal };
  const candidate: RedirectRule = {
    id: id ?? newId(),
    fromPath: input.fromPath,
    fromQuery: input.fromQuery,
    to: input.to,
    status: input.status,
    // "External" marks a row that leaves the site; a site path is never one, whatever was ticked.
    external: input.external && !isSitePath(input.to),
  };
  const planned = planRule(rules, candidate, replaces);
  if (!planned.ok) return planned;
  await writePlan(db, planned.plan, { note: input.note ?? "", source: input.source ?? "manual", isNew: !id }, nowIso());
  return { ok: true, id: candidate.id, to: planned.plan.rule.to, repointed: planned.plan.repointed.length };
}

/** One usable row of an import (checked and normalised), with the line it came from. */
export interface RedirectCandidate extends RedirectInput {
  line: number;
}

export type RedirectSkipReason = SaveRefusal | "unchanged";

export interface RedirectImportOutcome {
  added: number;
  updated: number;
  /** Rows already stored with the same target and status. */
  unchanged: number;
  /** Rows refused: a from-path the site answers (reserved, a live page), or a loop with the rows there. */
  refused: Array<{ line: number; reason: RedirectSkipReason; from: string }>;
}

/** Rows per INSERT statement: 11 values each, well inside both dialects' limits on bound parameters. */
const INSERT_BATCH = 500;

/**
 * Imports checked rows in one transaction (the caller's): a from-path the site answers itself
 * is refused and listed (redirectFromRefusal), one not stored yet is added, one stored with
 * another target or status is updated, the same is left alone; a row
 * that would loop is refused and listed. Rows are planned one after another against the whole
 * table in memory (read once), then written: new rows a batch per statement, changed rows one
 * UPDATE each.
 */
export async function importRedirects(
  db: DB,
  candidates: readonly RedirectCandidate[],
  source: string,
): Promise<RedirectImportOutcome> {
  const rules = new RuleSet(await loadRules(db));
  return (await importRedirectsInto(db, rules, candidates, source, nowIso())).outcome;
}

/** The redirects table's cheap fingerprint: its row count and latest change. */
export interface RulesVersion {
  count: number;
  latest: string;
}

/**
 * How a holder of the whole table in memory (an import job, between its chunks) tells that
 * nobody else changed it: every write adds a row or sets `updatedAt` to its time, so the count
 * or the latest `updatedAt` moves (the hit counters do not touch `updatedAt`, nor the rules).
 */
export async function rulesVersion(db: DB): Promise<RulesVersion> {
  const row = await db
    .selectFrom("redirects")
    .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.max("updatedAt").as("latest")])
    .executeTakeFirst();
  return { count: Number(row?.n ?? 0), latest: row?.latest ?? "" };
}

export const sameRulesVersion = (a: RulesVersion, b: RulesVersion) => a.count === b.count && a.latest === b.latest;

/**
 * `importRedirects` against rules the caller holds (the whole table, as `loadRules` reads it):
 * `rules` is changed to what the table holds after the writes. Also says how many rows were
 * inserted and how many written in all, so the caller can keep its rules' version.
 */
export async function importRedirectsInto(
  db: DB,
  rules: RuleSet,
  candidates: readonly RedirectCandidate[],
  source: string,
  now: string,
): Promise<{ outcome: RedirectImportOutcome; inserted: number; written: number }> {
  const outcome: RedirectImportOutcome = { added: 0, updated: 0, unchanged: 0, refused: [] };
  const inserts = new Map<string, { rule: RedirectRule; note: string }>();
  const updates = new Map<string, { rule: RedirectRule; note: string | undefined }>();
  const same = (a: RedirectRule, b: RedirectRule) =>
    a.to === b.to && a.status === b.status && a.external === b.external;
  for (const c of candidates) {
    const refusal = await redirectFromRefusal(db, { path: c.fromPath, query: c.fromQuery });
    if (refusal) {
      outcome.refused.push({ line: c.line, reason: refusal, from: fromKey({ path: c.fromPath, query: c.fromQuery }) });
      continue;
    }
    const stored = rules.get({ path: c.fromPath, query: c.fromQuery });
    const candidate: RedirectRule = {
      id: stored?.id ?? newId(),
      fromPath: c.fromPath,
      fromQuery: c.fromQuery,
      to: c.to,
      status: c.status,
      external: c.external && !isSitePath(c.to),
    };
    // Exactly the stored row (a second run of the same file): the table is flat, so planning
    // it again would change nothing.
    if (stored && same(stored, candidate)) {
      outcome.unchanged += 1;
      continue;
    }
    const planned = planRule(rules, candidate, stored);
    if (!planned.ok) {
      outcome.refused.push({
        line: c.line,
        reason: planned.error,
        from: fromKey({ path: c.fromPath, query: c.fromQuery }),
      });
      continue;
    }
    const { rule, repointed } = planned.plan;
    // The same target and status again (after flattening): nothing to write, a new note included.
    if (stored && same(stored, rule) && repointed.length === 0) {
      outcome.unchanged += 1;
      continue;
    }
    if (!stored) {
      inserts.set(rule.id, { rule, note: c.note ?? "" });
      outcome.added += 1;
    } else if (inserts.has(rule.id)) {
      inserts.set(rule.id, { rule, note: c.note ?? inserts.get(rule.id)?.note ?? "" });
    } else {
      if (!updates.has(rule.id)) outcome.updated += 1;
      updates.set(rule.id, { rule, note: c.note ?? updates.get(rule.id)?.note });
    }
    for (const moved of repointed) {
      const added = inserts.get(moved.id);
      if (added) inserts.set(moved.id, { ...added, rule: moved });
      else updates.set(moved.id, { rule: moved, note: updates.get(moved.id)?.note });
    }
  }
  const values = [...inserts.values()].map(({ rule, note }) => ({
    id: rule.id,
    fromPath: fromKey({ path: rule.fromPath, query: rule.fromQuery }),
    toPath: rule.to,
    status: rule.status,
    external: rule.external ? 1 : 0,
    source,
    note,
    createdAt: now,
    updatedAt: now,
  }));
  for (let i = 0; i < values.length; i += INSERT_BATCH) {
    await db
      .insertInto("redirects")
      .values(values.slice(i, i + INSERT_BATCH))
      .execute();
  }
  for (const { rule, note } of updates.values()) {
    await db
      .updateTable("redirects")
      .set({
        toPath: rule.to,
        status: rule.status,
        external: rule.external ? 1 : 0,
        ...(note !== undefined ? { note } : {}),
        updatedAt: now,
      })
      .where("id", "=", rule.id)
      .execute();
  }
  return { outcome, inserted: values.length, written: values.length + updates.size };
}

/** Adds each redirect's hits and its last hit time: one UPDATE per row, in one transaction. */
export async function writeRedirectHits(
  db: DB,
  increments: ReadonlyMap<string, number>,
  now = new Date(),
): Promise<void> {
  if (increments.size === 0) return;
  const at = nowIso(now);
  await db.transaction().execute(async (trx) => {
    for (const [id, n] of increments) {
      // Only the counters: a hit is no edit (updatedAt stays).
      await trx
        .updateTable("redirects")
        .set({ hits: sql<number>`"hits" + ${n}`, lastHitAt: at })
        .where("id", "=", id)
        .execute();
    }
  });
}
