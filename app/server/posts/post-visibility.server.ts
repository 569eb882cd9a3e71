import { type Expression, type SqlBool, sql } from "kysely";

/**
 * Who may see a post, in one place: in code (`isPublic`, `canView`) and in queries
 * (`wherePublic`). Public means published and not in the trash; every public page's
 * query filters through `wherePublic`, so a new status or a trash rule changes here only.
 */
export interface Visibility {
  status: string;
  deletedAt: string | null;
  authorId: string | null;
}

export interface Viewer {
  id: string;
  isAdmin: boolean;
}

/** Public: published and not in the trash. */
export function isPublic(post: Pick<Visibility, "status" | "deletedAt">): boolean {
  return post.status === "published" && post.deletedAt === null;
}

/**
 * Whether `viewer` may see the post: everyone sees public posts; drafts and
 * scheduled posts are for their author and admins; the trash is for admins.
 */
export function canView(post: Visibility, viewer: Viewer | null): boolean {
  if (isPublic(post)) return true;
  if (!viewer) return false;
  if (viewer.isAdmin) return true;
  return post.deletedAt === null && post.authorId !== null && post.authorId === viewer.id;
}

/** `isPublic` as a WHERE condition on the posts table (or its alias, e.g. "p"). */
export function wherePublic(table = "posts"): Expression<SqlBool> {
  return sql<SqlBool>`(${sql.ref(`${table}.status`)} = ${"published"} and ${sql.ref(`${table}.deletedAt`)} is null)`;
}
