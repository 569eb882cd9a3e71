import { isSubscriberFilter, type SubscriberFilter, type SubscriberSort } from "../../lib/admin-users.ts";
import type { DB } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import type { Locale, SubscriberLanguages, SubscriberStatus } from "../db/schema.server.ts";

export interface AdminSubscriber {
  id: string;
  email: string;
  status: SubscriberStatus;
  locale: Locale;
  /** What they read: one language or both (then `locale` first). */
  languages: SubscriberLanguages;
  /** Permanent failures in a row. */
  bounceCount: number;
  /** Set when suppressed (the third permanent failure in a row). */
  bouncedAt: string | null;
  createdAt: string;
  confirmedAt: string | null;
}

interface SubscriberFilterOpts {
  q?: string;
  status?: string;
}

function filtered(db: DB, opts: SubscriberFilterOpts) {
  const q = opts.q?.trim() ?? "";
  const filter: SubscriberFilter | null = isSubscriberFilter(opts.status ?? "")
    ? (opts.status as SubscriberFilter)
    : null;
  return db
    .selectFrom("subscribers as s")
    .$if(q !== "", (qb) => qb.where(containsText(["s.email"], q)))
    .$if(filter === "bounced", (qb) => qb.where("s.bouncedAt", "is not", null))
    .$if(filter !== null && filter !== "bounced", (qb) => qb.where("s.status", "=", filter as SubscriberStatus));
}

const COLUMNS = [
  "s.id",
  "s.email",
  "s.status",
  "s.locale",
  "s.languages",
  "s.bounceCount",
  "s.bouncedAt",
  "s.createdAt",
  "s.confirmedAt",
] as const;

/** Subscribers for the admin list, newest first: status or bounce filter, e-mail search, pages. */
export async function listSubscribersForAdmin(
  db: DB,
  opts: SubscriberFilterOpts & { page: number; pageSize: number; sort?: SubscriberSort },
): Promise<AdminPage<AdminSubscriber>> {
  const sort = opts.sort ?? "newest";
  return adminPage(await countRows(filtered(db, opts)), opts, (limit, offset) =>
    filtered(db, opts)
      .select(COLUMNS)
      .$if(sort === "email", (qb) => qb.orderBy("s.email"))
      .orderBy("s.createdAt", sort === "oldest" ? "asc" : "desc")
      .orderBy("s.id")
      .limit(limit)
      .offset(offset)
      .execute(),
  );
}

/** Every subscriber matching the filter, oldest first (the CSV export). */
export async function subscribersForExport(db: DB, opts: SubscriberFilterOpts): Promise<AdminSubscriber[]> {
  return filtered(db, opts).select(COLUMNS).orderBy("s.createdAt", "asc").orderBy("s.id").execute();
}
