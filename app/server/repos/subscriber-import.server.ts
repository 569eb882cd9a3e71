import { createHash, randomBytes } from "node:crypto";
import type { ImportCandidate } from "../admin/subscriber-csv.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { newId } from "../ids.server.ts";
import { type Actor, audit } from "./audit.server.ts";

/** Rows per statement: ~13 values each, well inside both dialects' limits on bound parameters. */
const BATCH = 500;

/**
 * A stored token hash nobody holds the token of, in the form subscribers.server.ts stores
 * (sha256 hex of 256 random bits): an imported reader never gets a confirmation link, and
 * their unsubscribe links are made when mail is sent.
 */
const unusableTokenHash = () => createHash("sha256").update(randomBytes(32).toString("base64url")).digest("hex");

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ImportOutcome {
  imported: number;
  /** Addresses already on the list, whatever their status: left exactly as they were. */
  existing: number;
}

/**
 * Adds the candidates as **confirmed** subscribers (the site's owner vouches for a list they
 * bring: docs/decisions/011-subscriber-import.md), all or nothing in one transaction with its
 * audit entry. An address already present in any status, an unsubscribed one above all, is
 * never touched; one subscribing at the same moment is counted as present.
 */
export async function importSubscribers(
  db: DB,
  actor: Actor,
  candidates: readonly ImportCandidate[],
  details: Record<string, unknown> = {},
  now = new Date(),
): Promise<ImportOutcome> {
  const at = nowIso(now);
  // Rows (ids, token hashes) are made before the transaction, so it holds the database no longer than the writes.
  const rows = candidates.map((c) => ({
    id: newId(),
    email: c.email,
    locale: c.locale,
    languages: c.languages,
    status: "confirmed" as const,
    confirmTokenHash: unusableTokenHash(),
    unsubscribeTokenHash: unusableTokenHash(),
    confirmedAt: at,
    unsubscribedAt: null,
    bounceCount: 0,
    bouncedAt: null,
    createdAt: c.createdAt ?? at,
    updatedAt: at,
  }));
  return db.transaction().execute(async (trx) => {
    const present = new Set<string>();
    for (const batch of chunks(rows, BATCH)) {
      const found = await trx
        .selectFrom("subscribers")
        .select("email")
        .where(
          "email",
          "in",
          batch.map((r) => r.email),
        )
        .execute();
      for (const row of found) present.add(row.email);
    }
    let imported = 0;
    for (const batch of chunks(
      rows.filter((r) => !present.has(r.email)),
      BATCH,
    )) {
      const inserted = await trx
        .insertInto("subscribers")
        .values(batch)
        .onConflict((oc) => oc.column("email").doNothing())
        .returning("id")
        .execute();
      imported += inserted.length;
    }
    const outcome = { imported, existing: candidates.length - imported };
    await audit(trx, actor, "subscribers.import", { type: "subscriber" }, { ...details, ...outcome });
    return outcome;
  });
}
