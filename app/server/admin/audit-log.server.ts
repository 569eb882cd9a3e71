// The audit log as the admin reads it: a page of entries, newest first, filtered by action
// and by person, each naming its actor by display name (never the e-mail address the entry
// keeps) and pointing at the object acted on while that object still exists.
import type { DB } from "../db/db.server.ts";

/** Who did it, as the page shows them: an account's name, or a job of the server's. */
export type AuditActorView =
  | { kind: "user"; id: string; name: string | null }
  | { kind: "deleted"; id: string }
  | { kind: "system"; job: string };

export interface AuditRow {
  id: string;
  action: string;
  entityType: string;
  entityId: string | null;
  /** The object's name when the entry recorded one (a post's title, a file's name). */
  title: string | null;
  actor: AuditActorView;
  createdAt: string;
  /** The admin page of the object acted on; null when it is gone or has no page. */
  href: string | null;
  /** The object had an admin page and is gone since (deleted, or a post in the trash). */
  gone: boolean;
}

export interface AuditFilters {
  /** An action ("post.publish"), or "" for any. */
  action: string;
  /** A person: a user id, or a job's name ("system:scheduler"); "" for anyone. */
  actor: string;
}

export interface AuditPage {
  items: AuditRow[];
  total: number;
  page: number;
  pageCount: number;
}

/** Where each kind of object is edited, and the table that says whether it still exists. */
const PAGES: Record<
  string,
  {
    table: "posts" | "ads" | "swapers" | "links" | "redirects" | "series" | "categories" | "tags" | "media";
    href: (id: string) => string;
  }
> = {
  post: { table: "posts", href: (id) => `/posts/edit/${id}` },
  ad: { table: "ads", href: (id) => `/admin/ads/${id}` },
  swaper: { table: "swapers", href: (id) => `/admin/swapers/${id}` },
  link: { table: "links", href: (id) => `/admin/links/${id}` },
  redirect: { table: "redirects", href: (id) => `/admin/redirects/${id}` },
  series: { table: "series", href: (id) => `/admin/series/${id}` },
  category: { table: "categories", href: (id) => `/admin/categories/${id}` },
  tag: { table: "tags", href: (id) => `/admin/tags/${id}` },
  media: { table: "media", href: (id) => `/admin/media?details=${id}` },
};

/** The objects of `rows` that still exist, as "type:id". */
async function existing(db: DB, rows: ReadonlyArray<{ entityType: string; entityId: string | null }>) {
  const found = new Set<string>();
  const byType = new Map<string, Set<string>>();
  for (const r of rows) {
    if (!r.entityId || !PAGES[r.entityType]) continue;
    const ids = byType.get(r.entityType) ?? new Set<string>();
    ids.add(r.entityId);
    byType.set(r.entityType, ids);
  }
  for (const [type, ids] of byType) {
    const table = PAGES[type]?.table;
    if (!table) continue;
    let query = db
      .selectFrom(table)
      .select("id")
      .where("id", "in", [...ids]);
    // A post in the trash is not edited; its entries name it without a link.
    if (table === "posts") query = query.where("posts.deletedAt", "is", null);
    for (const row of await query.execute()) found.add(`${type}:${row.id}`);
  }
  return found;
}

function titleOf(details: string): string | null {
  try {
    const value: unknown = JSON.parse(details);
    if (typeof value !== "object" || value === null) return null;
    const title = (value as Record<string, unknown>).title;
    return typeof title === "string" && title ? title : null;
  } catch {
    return null;
  }
}

/** A page of the log, newest first, filtered. */
export async function listAudit(
  db: DB,
  { filters, page, pageSize }: { filters: AuditFilters; page: number; pageSize: number },
): Promise<AuditPage> {
  let base = db.selectFrom("auditLog");
  if (filters.action) base = base.where("auditLog.action", "=", filters.action);
  if (filters.actor.startsWith("system:")) {
    base = base.where("auditLog.actorId", "is", null).where("auditLog.actorEmail", "=", filters.actor);
  } else if (filters.actor) {
    base = base.where("auditLog.actorId", "=", filters.actor);
  }
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(page, pageCount);
  const rows = await base
    .leftJoin("users", "users.id", "auditLog.actorId")
    .select([
      "auditLog.id",
      "auditLog.action",
      "auditLog.entityType",
      "auditLog.entityId",
      "auditLog.details",
      "auditLog.createdAt",
      "auditLog.actorId",
      "auditLog.actorEmail",
      "users.id as userId",
      "users.name as userName",
    ])
    .orderBy("auditLog.createdAt", "desc")
    .orderBy("auditLog.id", "desc")
    .limit(pageSize)
    .offset((current - 1) * pageSize)
    .execute();
  const alive = await existing(db, rows);
  // An entry about an account recorded its address as the title: name the account instead.
  const userIds = [...new Set(rows.filter((r) => r.entityType === "user" && r.entityId).map((r) => r.entityId ?? ""))];
  const userNames = new Map(
    userIds.length
      ? (await db.selectFrom("users").select(["id", "name"]).where("id", "in", userIds).execute()).map((u) => [
          u.id,
          u.name.trim(),
        ])
      : [],
  );
  return {
    items: rows.map((r) => ({
      id: r.id,
      action: r.action,
      entityType: r.entityType,
      entityId: r.entityId,
      title: r.entityType === "user" ? (userNames.get(r.entityId ?? "") ?? null) || null : titleOf(r.details),
      actor: actorView(r),
      createdAt: r.createdAt,
      href:
        r.entityId && alive.has(`${r.entityType}:${r.entityId}`)
          ? (PAGES[r.entityType]?.href(r.entityId) ?? null)
          : null,
      gone: Boolean(r.entityId && PAGES[r.entityType] && !alive.has(`${r.entityType}:${r.entityId}`)),
    })),
    total,
    page: current,
    pageCount,
  };
}

function actorView(r: {
  actorId: string | null;
  actorEmail: string;
  userId: string | null;
  userName: string | null;
}): AuditActorView {
  if (r.actorId === null) return { kind: "system", job: r.actorEmail };
  if (r.userId === null) return { kind: "deleted", id: r.actorId };
  return { kind: "user", id: r.userId, name: r.userName?.trim() || null };
}

/** The filter menus' choices: every action in the log, and everyone who wrote an entry (by name). */
export async function auditFilterChoices(
  db: DB,
): Promise<{ actions: string[]; actors: Array<{ value: string; actor: AuditActorView }> }> {
  const actions = await db.selectFrom("auditLog").select("action").distinct().orderBy("action").execute();
  const people = await db
    .selectFrom("auditLog")
    .leftJoin("users", "users.id", "auditLog.actorId")
    .select(["auditLog.actorId", "users.id as userId", "users.name as userName"])
    .where("auditLog.actorId", "is not", null)
    .distinct()
    .execute();
  const jobs = await db
    .selectFrom("auditLog")
    .select("actorEmail")
    .where("actorId", "is", null)
    .distinct()
    .orderBy("actorEmail")
    .execute();
  const actors = people
    .map((p) => ({ value: p.actorId ?? "", actor: actorView({ ...p, actorEmail: "" }) }))
    .sort((a, b) => nameKey(a.actor).localeCompare(nameKey(b.actor)));
  return {
    actions: actions.map((a) => a.action),
    actors: [
      ...actors,
      ...jobs.map((j) => ({ value: j.actorEmail, actor: { kind: "system" as const, job: j.actorEmail } })),
    ],
  };
}

function nameKey(actor: AuditActorView): string {
  return actor.kind === "user" ? (actor.name ?? "") : "\uffff";
}
