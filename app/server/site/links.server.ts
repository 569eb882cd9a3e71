import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import { newId } from "../platform/ids.server.ts";
import { moveToPosition } from "./ordering.server.ts";

/** A friend link as the public pages show it. */
export interface PublicLink {
  id: string;
  name: string;
  url: string;
  logoUrl: string | null;
  description: string;
}

export interface LinkRow extends PublicLink {
  sortOrder: number;
  enabled: boolean;
  updatedAt: string;
}

export interface NewLink {
  name: string;
  url: string;
  logoUrl?: string | null;
  description?: string;
  sortOrder?: number;
  enabled?: boolean;
}

/** The footer shows at most this many links; the rest are on /links. */
export const FOOTER_LINKS = 6;

const COLUMNS = ["id", "name", "url", "logoUrl", "description", "sortOrder", "enabled", "updatedAt"] as const;

function toRow(r: Omit<LinkRow, "enabled"> & { enabled: number }): LinkRow {
  return { ...r, enabled: r.enabled === 1 };
}

/** Enabled links in display order (`limit` for the footer). */
export async function listEnabledLinks(db: DB, limit?: number): Promise<PublicLink[]> {
  return await db
    .selectFrom("links")
    .select(["id", "name", "url", "logoUrl", "description"])
    .where("enabled", "=", 1)
    .orderBy("sortOrder")
    .orderBy("createdAt")
    .orderBy("id")
    .$if(limit !== undefined, (qb) => qb.limit(limit ?? 0))
    .execute();
}

export async function createLink(db: DB, input: NewLink): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("links")
    .values({
      id,
      name: input.name,
      url: input.url,
      logoUrl: input.logoUrl ?? null,
      description: input.description ?? "",
      sortOrder: input.sortOrder ?? 0,
      enabled: input.enabled === false ? 0 : 1,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

/** Every link for the admin list, in display order; `q` matches name, address or description. */
export async function listLinksForAdmin(
  db: DB,
  opts: { q?: string; page: number; pageSize: number },
): Promise<AdminPage<LinkRow>> {
  const q = opts.q?.trim() ?? "";
  const base = db.selectFrom("links").$if(q !== "", (qb) => qb.where(containsText(["name", "url", "description"], q)));
  return adminPage(await countRows(base), opts, async (limit, offset) =>
    (
      await base
        .select(COLUMNS)
        .orderBy("sortOrder")
        .orderBy("createdAt")
        .orderBy("id")
        .limit(limit)
        .offset(offset)
        .execute()
    ).map(toRow),
  );
}

export async function getLink(db: DB, id: string): Promise<LinkRow | undefined> {
  const row = await db.selectFrom("links").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Updates a link; false when it no longer exists. */
export async function updateLink(db: DB, id: string, input: Required<NewLink>): Promise<boolean> {
  const result = await db
    .updateTable("links")
    .set({
      name: input.name,
      url: input.url,
      logoUrl: input.logoUrl,
      description: input.description,
      sortOrder: input.sortOrder,
      enabled: input.enabled ? 1 : 0,
      updatedAt: nowIso(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteLink(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("links").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Puts link `id` at `position` (0-based) in the display order; inside a transaction. */
export function moveLink(db: DB, id: string, position: number): Promise<boolean> {
  return moveToPosition(db, "links", id, position);
}
