import type { DB } from "../../app/server/db/db.server.ts";
import { nowIso } from "../../app/server/db/db.server.ts";
import type { CommentStatus } from "../../app/server/db/schema.server.ts";
import { newId } from "../../app/server/platform/ids.server.ts";

/** A user row for repository tests (no password, no session). Returns its id. */
export async function insertUser(
  db: DB,
  input: { email: string; name?: string; emailVerified?: boolean },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("users")
    .values({
      id,
      name: input.name ?? "",
      email: input.email,
      emailVerified: input.emailVerified === false ? 0 : 1,
      image: null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

/**
 * A comment row written straight into the table, as if it had arrived and been rendered
 * (`<p>{body}</p>`): pending unless told otherwise, dated now unless `at` is given. For tests
 * of what lists, counts or moderates comments; a test of how one arrives goes through
 * submitComment. Returns its id.
 */
export async function insertComment(
  db: DB,
  input: {
    postId: string;
    body: string;
    authorId?: string | null;
    guestName?: string;
    parentId?: string | null;
    status?: CommentStatus;
    at?: string;
  },
): Promise<string> {
  const id = newId();
  const at = input.at ?? nowIso();
  await db
    .insertInto("comments")
    .values({
      id,
      postId: input.postId,
      authorId: input.authorId ?? null,
      ...(input.guestName === undefined ? {} : { guestName: input.guestName }),
      parentId: input.parentId ?? null,
      bodyMarkdown: input.body,
      bodyHtml: `<p>${input.body}</p>`,
      status: input.status ?? "pending",
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  return id;
}
