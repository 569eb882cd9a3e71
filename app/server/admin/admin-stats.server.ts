import type { DB } from "../db/db.server.ts";
import type { CountValue } from "../db/query.server.ts";
import { dayOf, daysBefore, insightSeries } from "../insights/metrics.server.ts";

export interface AdminCounts {
  posts: { published: number; draft: number; scheduled: number; trash: number };
  pendingComments: number;
  users: number;
  subscribers: { confirmed: number; pending: number };
}

/** The dashboard's figures: four grouped counts, run together. */
export async function adminCounts(db: DB): Promise<AdminCounts> {
  const [posts, comments, users, subscribers] = await Promise.all([
    db
      .selectFrom("posts")
      .select((eb) => [
        "status",
        eb.case().when("deletedAt", "is not", null).then(1).else(0).end().as("trashed"),
        eb.fn.countAll<CountValue>().as("n"),
      ])
      .groupBy(["status", "trashed"])
      .execute(),
    db
      .selectFrom("comments")
      .where("status", "=", "pending")
      .select((eb) => eb.fn.countAll<CountValue>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<CountValue>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("subscribers")
      .select((eb) => ["status", eb.fn.countAll<CountValue>().as("n")])
      .groupBy("status")
      .execute(),
  ]);
  const counts: AdminCounts = {
    posts: { published: 0, draft: 0, scheduled: 0, trash: 0 },
    pendingComments: Number(comments.n),
    users: Number(users.n),
    subscribers: { confirmed: 0, pending: 0 },
  };
  for (const row of posts) {
    if (Number(row.trashed) === 1) counts.posts.trash += Number(row.n);
    else counts.posts[row.status] += Number(row.n);
  }
  for (const row of subscribers) {
    if (row.status === "confirmed" || row.status === "pending") counts.subscribers[row.status] = Number(row.n);
  }
  return counts;
}

/** The dashboard's "last days": reads and visitors (Insights' daily totals) and readers who confirmed. */
export interface LastDaysFigures {
  days: number;
  views: number;
  visitors: number;
  newSubscribers: number;
}

/** The `days` days up to today (UTC), as Insights counts them, and subscribers confirmed since their start. */
export async function lastDaysFigures(db: DB, opts: { days: number; now?: Date }): Promise<LastDaysFigures> {
  const to = dayOf(opts.now ?? new Date());
  const from = daysBefore(to, opts.days - 1);
  const [series, subscribers] = await Promise.all([
    insightSeries(db, from, to),
    db
      .selectFrom("subscribers")
      .where("status", "=", "confirmed")
      .where("confirmedAt", ">=", `${from}T00:00:00.000Z`)
      .select((eb) => eb.fn.countAll<CountValue>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    days: opts.days,
    views: series.reduce((n, d) => n + d.views, 0),
    visitors: series.reduce((n, d) => n + d.visitors, 0),
    newSubscribers: Number(subscribers.n),
  };
}
