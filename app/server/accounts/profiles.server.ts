import { handleBase } from "../../lib/author-profile.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { isUniqueViolation } from "../db/query.server.ts";

/** What the public sees of a person: on the author page, bylines and comments. */
export interface PublicProfile {
  id: string;
  name: string;
  handle: string;
  bio: string | null;
  /** An avatar URL (an uploaded image, or the one an OAuth provider gave); null: none. */
  image: string | null;
}

/**
 * Gives the user a handle when they have none yet (new accounts; a failed earlier
 * try): the name's base, then "-2", "-3"… until one is free. Returns the handle.
 * Set once: a later change of name keeps the URL.
 */
export async function ensureHandle(db: DB, userId: string): Promise<string | null> {
  const user = await db.selectFrom("users").select(["name", "handle"]).where("id", "=", userId).executeTakeFirst();
  if (!user) return null;
  if (user.handle) return user.handle;
  const base = handleBase(user.name, userId);
  for (let n = 1; n < 1000; n++) {
    const handle = n === 1 ? base : `${base}-${n}`;
    const taken = await db.selectFrom("users").select("id").where("handle", "=", handle).executeTakeFirst();
    if (taken) continue;
    try {
      const result = await db
        .updateTable("users")
        .set({ handle })
        .where("id", "=", userId)
        .where("handle", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return handle;
      // Someone else gave this user a handle in between: that one stands.
      return (
        (await db.selectFrom("users").select("handle").where("id", "=", userId).executeTakeFirst())?.handle ?? null
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return null;
}

/** The profile behind a handle (case-insensitive: handles are stored in lowercase), or null. */
export async function findProfileByHandle(db: DB, handle: string): Promise<PublicProfile | null> {
  const row = await db
    .selectFrom("users")
    .select(["id", "name", "handle", "bio", "image"])
    .where("handle", "=", handle.toLowerCase())
    .where("banned", "=", 0)
    .executeTakeFirst();
  return row?.handle ? { ...row, handle: row.handle } : null;
}

/** The account page's view of the user's own profile. */
export async function getOwnProfile(
  db: DB,
  userId: string,
): Promise<{ name: string; handle: string | null; bio: string | null; image: string | null } | null> {
  return (
    (await db
      .selectFrom("users")
      .select(["name", "handle", "bio", "image"])
      .where("id", "=", userId)
      .executeTakeFirst()) ?? null
  );
}

/** Sets the name (already checked by the display-name rule), bio and avatar in one write. */
export async function updateProfile(
  db: DB,
  userId: string,
  values: { name: string; bio: string | null; image?: string | null },
): Promise<void> {
  await db
    .updateTable("users")
    .set({
      name: values.name,
      bio: values.bio,
      ...(values.image !== undefined ? { image: values.image } : {}),
      updatedAt: nowIso(),
    })
    .where("id", "=", userId)
    .execute();
}
