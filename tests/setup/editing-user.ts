import type { EditingUser } from "../../app/server/posts/post-access.server.ts";

/**
 * Account `id` editing as an author who is not an admin: it may edit its own posts only
 * (app/server/posts/post-access.server.ts), so a test of someone else's post sees "not found".
 */
export function asAuthor(id: string): EditingUser {
  return { id, isAdmin: false };
}

/** Account `id` editing as an admin: it may edit every post. */
export function asAdmin(id: string): EditingUser {
  return { id, isAdmin: true };
}
