import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";

export async function saveContactMessage(
  db: DB,
  input: { name: string; email: string; message: string; locale: Locale; ipAddress: string | null },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("contactMessages")
    .values({ id, ...input, createdAt: now, updatedAt: now })
    .execute();
  return id;
}

export async function countContactMessages(db: DB): Promise<number> {
  const row = await db
    .selectFrom("contactMessages")
    .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
