import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Database } from "../db/schema.server.ts";

// Who may change which post, in one place (docs/decisions/028-admins-edit-every-post.md).
//
// An admin edits, publishes, unpublishes, trashes and restores every post, whoever wrote it
// (the demo author, an imported author without a login, another admin); anyone else only
// their own. The routes that write posts also stand behind `requireAdmin`, so today the second
// half is a second line only. The post's author (its byline) never changes with who edits:
// the editor's repositories take the editing user for their WHERE clauses, their revisions
// and the audit entry, and leave `posts.authorId` alone.

/** The signed-in account that edits (a `SessionUser` is one). */
export interface EditingUser {
  id: string;
  isAdmin: boolean;
}

/** Whether `user` may edit post `post` (an admin: any post; anyone else: their own). */
export function canEditPost(user: EditingUser, post: { authorId: string | null }): boolean {
  return user.isAdmin || (post.authorId !== null && post.authorId === user.id);
}

/**
 * The same rule as a WHERE condition on `posts` (not aliased): `.where(editableBy(user))`.
 * A post the user may not edit then behaves as if it did not exist (404).
 */
export function editableBy(user: EditingUser): (eb: ExpressionBuilder<Database, "posts">) => Expression<SqlBool> {
  return (eb) => (user.isAdmin ? sql<SqlBool>`1 = 1` : eb("authorId", "=", user.id));
}

/**
 * A job saving over a post in someone's name (the scheduled update of pending changes): it
 * may save over any post, and the revision names `writerId`, who wrote the changes.
 */
export function jobSavingFor(writerId: string): EditingUser {
  return { id: writerId, isAdmin: true };
}
