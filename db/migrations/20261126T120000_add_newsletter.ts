import { type Kysely, sql } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.
// Timestamps are ISO-8601 UTC text and booleans 0/1 integers on both dialects.

/**
 * The newsletter: what each subscriber reads, who bounced, which post goes out to
 * subscribers, and one row per send that the mail worker turns into outbox mails.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // "en", "zh" or "both"; until now everybody got the language of the page they subscribed on.
  await db.schema
    .alterTable("subscribers")
    .addColumn("languages", "text", (c) =>
      c.notNull().defaultTo("both").check(sql`"languages" in ('en', 'zh', 'both')`),
    )
    .execute();
  await sql`update "subscribers" set "languages" = "locale"`.execute(db);
  // Permanent failures in a row; at 3 the address is suppressed (bouncedAt) until it subscribes again.
  await db.schema
    .alterTable("subscribers")
    .addColumn("bounceCount", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("subscribers").addColumn("bouncedAt", "text").execute();

  // 1: mail this post to subscribers when it first goes live.
  await db.schema
    .alterTable("posts")
    .addColumn("newsletter", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("newsletterSends")
    .addColumn("id", "text", (c) => c.primaryKey())
    // One send per post, ever.
    .addColumn("postId", "text", (c) => c.notNull().unique())
    // "preparing": recipients are being queued from `cursor` on; "sending": all queued; "cancelled".
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("cursor", "text")
    .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
    // JSON: the rendered mail per language, with placeholders for each reader's links.
    .addColumn("mails", "text")
    .addColumn("createdBy", "text")
    .addColumn("createdAt", "text", (c) => c.notNull())
    .addColumn("updatedAt", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("newsletterSends_status_idx").on("newsletterSends").column("status").execute();

  await db.schema.alterTable("mailOutbox").addColumn("sendId", "text").execute();
  await db.schema.alterTable("mailOutbox").addColumn("subscriberId", "text").execute();
  await db.schema.alterTable("mailOutbox").addColumn("locale", "text").execute();
  // A send's counts: queued / sent / failed per send.
  await db.schema.createIndex("mailOutbox_send_idx").on("mailOutbox").columns(["sendId", "status"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("mailOutbox_send_idx").execute();
  await db.schema.alterTable("mailOutbox").dropColumn("locale").execute();
  await db.schema.alterTable("mailOutbox").dropColumn("subscriberId").execute();
  await db.schema.alterTable("mailOutbox").dropColumn("sendId").execute();
  await db.schema.dropTable("newsletterSends").execute();
  await db.schema.alterTable("posts").dropColumn("newsletter").execute();
  await db.schema.alterTable("subscribers").dropColumn("bouncedAt").execute();
  await db.schema.alterTable("subscribers").dropColumn("bounceCount").execute();
  await db.schema.alterTable("subscribers").dropColumn("languages").execute();
}
