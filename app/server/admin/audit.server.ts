import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";

export interface Actor {
  id: string;
  email: string;
}

/** Who an entry names: a user, or a job (no id; `email` says which, e.g. `system:scheduler`). */
export interface AuditActor {
  id: string | null;
  email: string;
}

export interface AuditEntry {
  id: string;
  actorEmail: string;
  action: string;
  entityType: string;
  entityId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

/**
 * Records an admin change. Pass the transaction that made the change, so the
 * entry exists exactly when the change does.
 */
export async function audit(
  db: DB,
  actor: AuditActor,
  action: string,
  entity: { type: string; id?: string | null },
  details: Record<string, unknown> = {},
): Promise<void> {
  const now = nowIso();
  await db
    .insertInto("auditLog")
    .values({
      id: newId(),
      actorId: actor.id,
      actorEmail: actor.email,
      action,
      entityType: entity.type,
      entityId: entity.id ?? null,
      details: JSON.stringify(details),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
}

function parseDetails(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The latest entries, newest first. */
export async function latestAudit(db: DB, limit = 20): Promise<AuditEntry[]> {
  const rows = await db
    .selectFrom("auditLog")
    .select(["id", "actorEmail", "action", "entityType", "entityId", "details", "createdAt"])
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, details: parseDetails(r.details) }));
}
