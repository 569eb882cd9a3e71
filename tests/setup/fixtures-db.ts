import type { DB } from "../../app/server/db/db.server.ts";
import { nowIso } from "../../app/server/db/db.server.ts";
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
