import type { Transaction } from "kysely";
import type { DB } from "../../db/db.server.ts";
import type { Database } from "../../db/schema.server.ts";
import {
  importRedirectsInto,
  loadRules,
  type RulesVersion,
  rulesVersion,
  sameRulesVersion,
} from "../../redirects/redirects.server.ts";
import { RuleSet } from "../../redirects/rules.server.ts";
import type { ImportCounts, ImportReportLine } from "../core.server.ts";
import type { RedirectScope } from "./redirect-plan.server.ts";

// The redirects writer: a chunk's planned redirects (redirect-plan.server.ts) written together in
// its transaction through the redirects feature's import, the refused ones noted in the report;
// and the stored rules kept from one chunk of an import to the next.

/**
 * The redirects table as the last chunk of an import left it, kept for the next chunk of the same
 * import (decision 020, "At scale"): reloading ~40,000 rules per chunk made a 10,000-post import
 * slow down as it went. It is used only when the table's version (rulesVersion) is the one this
 * process expects after its own writes; any other write (an admin's edit, another import) makes
 * the next chunk reload. Set only after a chunk committed; a failed chunk drops it.
 */
const chunkRules = new WeakMap<DB, { importId: string; version: RulesVersion; rules: RuleSet }>();

export interface KeptRules {
  version: RulesVersion;
  rules: RuleSet;
}

/** Takes the rules the last chunk of this import kept (none are kept meanwhile: a failed chunk leaves none). */
export function takeKeptRules(db: DB, importId: string): KeptRules | null {
  const cached = chunkRules.get(db);
  chunkRules.delete(db);
  return cached && cached.importId === importId ? cached : null;
}

/** After a chunk committed: its rules for the next chunk of the same import. */
export function keepRules(db: DB, importId: string, kept: KeptRules): void {
  chunkRules.set(db, { importId, ...kept });
}

/** Drops the kept rules (an import ended). */
export function forgetKeptRules(db: DB): void {
  chunkRules.delete(db);
}

/**
 * In a chunk's transaction: the stored rules (the kept ones when the table is as this process
 * left it) in an empty scope for the chunk's redirects, and the table's version now.
 */
export async function openRedirectScope(
  trx: Transaction<Database>,
  kept: KeptRules | null,
  lines: ImportReportLine[],
): Promise<{ scope: RedirectScope; version: RulesVersion }> {
  const version = await rulesVersion(trx);
  const rules = kept && sameRulesVersion(kept.version, version) ? kept.rules : new RuleSet(await loadRules(trx));
  return { scope: { rules, taken: new Set<string>(), lines, candidates: [], labels: new Map() }, version };
}

/**
 * Writes the chunk's planned redirects, counting those added and noting those refused. Returns
 * the table's version once the chunk commits.
 */
export async function writeRedirects(
  trx: Transaction<Database>,
  scope: RedirectScope,
  version: RulesVersion,
  kind: string,
  at: string,
  counts: ImportCounts,
): Promise<RulesVersion> {
  if (scope.candidates.length === 0) return version;
  const result = await importRedirectsInto(trx, scope.rules, scope.candidates, `import:${kind}`, at);
  const { outcome } = result;
  counts.redirectsAdded += outcome.added;
  for (const r of outcome.refused) {
    // The site's own addresses and live pages are named for what they are; loops as before.
    const reason =
      r.reason === "fromReserved"
        ? "redirectReserved"
        : r.reason === "fromLive"
          ? "redirectLive"
          : `redirect:${r.reason}`;
    scope.lines.push({ item: scope.labels.get(r.from) ?? r.from, outcome: "note", reason, detail: r.from });
  }
  return result.written > 0 ? { count: version.count + result.inserted, latest: at } : version;
}
