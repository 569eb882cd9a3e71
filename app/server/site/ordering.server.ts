import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";

/** Tables whose rows an admin puts in order (sortOrder, then createdAt, then id). */
export type OrderedTable = "swapers" | "links";

/**
 * Puts row `id` at `position` (0-based) in the display order and renumbers every
 * row 10, 20, 30… (move up / move down, drag and drop). Call it inside a
 * transaction. False when the row does not exist.
 */
export async function moveToPosition(db: DB, table: OrderedTable, id: string, position: number): Promise<boolean> {
  // The two tables share these columns; Kysely needs one concrete name to type them.
  const t = table as "swapers";
  const ids = (
    await db.selectFrom(t).select("id").orderBy("sortOrder").orderBy("createdAt").orderBy("id").execute()
  ).map((r) => r.id);
  const from = ids.indexOf(id);
  if (from < 0) return false;
  ids.splice(from, 1);
  ids.splice(Math.max(0, Math.min(position, ids.length)), 0, id);
  const now = nowIso();
  for (const [i, rowId] of ids.entries()) {
    await db
      .updateTable(t)
      .set({ sortOrder: (i + 1) * 10, updatedAt: now })
      .where("id", "=", rowId)
      .execute();
  }
  return true;
}
