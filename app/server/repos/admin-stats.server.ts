import type { DB } from "../db/db.server.ts";
import type { CountValue } from "../db/query.server.ts";

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
