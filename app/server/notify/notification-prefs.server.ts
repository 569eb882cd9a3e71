import type { Locale } from "../../lib/i18n/locale.ts";
import type { DB } from "../db/db.server.ts";

// A user's own mail settings (the `users` columns of the notification migration).

/** Whether the user gets a mail when someone replies to their comments; false for an unknown user. */
export async function replyNotificationsOn(db: DB, userId: string): Promise<boolean> {
  const row = await db.selectFrom("users").select("replyNotifications").where("id", "=", userId).executeTakeFirst();
  return Number(row?.replyNotifications ?? 0) === 1;
}

/** Turns reply notifications on or off; false when no such user exists. */
export async function setReplyNotifications(db: DB, userId: string, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ replyNotifications: on ? 1 : 0 })
    .where("id", "=", userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Remembers the language the user is using the site in (the mail we send them unasked uses it). */
export async function rememberLocale(db: DB, userId: string, locale: Locale): Promise<void> {
  await db
    .updateTable("users")
    .set({ locale })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("locale", "is", null), eb("locale", "!=", locale)]))
    .execute();
}
