import { sql } from "kysely";
import type { Logger } from "pino";
import { pickTitle } from "../../lib/admin-content.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { excerpt, pendingCommentCount } from "../comments/comment-moderation.server.ts";
import type { DB } from "../db/db.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import { siteNameIn } from "../mail/site-name.server.ts";
import { displayName } from "../posts/post-detail.server.ts";
import { getSiteSettings } from "../site/site-settings.server.ts";
import { type NoticeDeps, recipientLocale } from "./notices.server.ts";

// Mail to the admins about comments waiting for moderation (site setting
// `moderationNotice`): one per comment as it comes in ("each"), one digest a day
// ("daily", the leased job below), or none ("off").

/** How much of a comment a moderation mail quotes. */
export const MODERATION_EXCERPT_LENGTH = 200;
/** The digest lists at most this many comments (oldest first) and says how many more wait. */
export const DIGEST_LIST_LIMIT = 20;
/** The digest goes out on the first run at or after this hour (UTC), once a day. */
export const DIGEST_HOUR_UTC = 8;
export const DIGEST_INTERVAL_MS = 5 * 60_000;
export const DIGEST_LEASE = "moderation-digest";

export const moderationKey = (commentId: string, adminId: string) => `moderation:${commentId}:${adminId}`;
export const digestKey = (day: string, adminId: string) => `moderation-digest:${day}:${adminId}`;

interface AdminRecipient {
  id: string;
  email: string;
  locale: Locale;
}

/** Admins in effect (listed, verified, not banned): who gets moderation mail. */
async function adminRecipients(db: DB): Promise<AdminRecipient[]> {
  const rows = await db
    .selectFrom("admins as a")
    .innerJoin("users as u", (j) => j.on(sql`lower(u."email")`, "=", sql.ref("a.email")))
    .where("u.emailVerified", "=", 1)
    .where("u.banned", "=", 0)
    .select(["u.id", "u.email", "u.locale"])
    .orderBy("u.id")
    .execute();
  return rows.map((r) => ({ id: r.id, email: r.email, locale: recipientLocale(r.locale) }));
}

interface WaitingComment {
  id: string;
  bodyMarkdown: string;
  authorName: string | null;
  titleEn: string | null;
  titleZh: string | null;
}

/** The pending comments, oldest first (one of them with `id`), with what a mail names. */
async function waitingComments(db: DB, opts: { id?: string; limit: number }): Promise<WaitingComment[]> {
  return db
    .selectFrom("comments as c")
    .innerJoin("posts as p", "p.id", "c.postId")
    .leftJoin("users as u", "u.id", "c.authorId")
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .select(["c.id", "c.bodyMarkdown", "u.name as authorName", "en.title as titleEn", "zh.title as titleZh"])
    .where("c.status", "=", "pending")
    .$if(opts.id !== undefined, (qb) => qb.where("c.id", "=", opts.id ?? ""))
    .orderBy("c.createdAt", "asc")
    .orderBy("c.id", "asc")
    .limit(opts.limit)
    .execute();
}

const queueUrl = (deps: NoticeDeps) => `${deps.publicUrl}/admin/comments?status=pending`;

function mailVars(c: WaitingComment, locale: Locale, someone: string) {
  return {
    name: displayName(c.authorName) ?? someone,
    title: pickTitle(c.titleEn, c.titleZh, locale),
    excerpt: excerpt(c.bodyMarkdown, MODERATION_EXCERPT_LENGTH),
  };
}

/**
 * Queues, in `trx` (the one that stored the comment), one mail to every admin about
 * the pending comment `commentId`. Keyed per comment and admin: never twice.
 */
export async function queueModerationNotices(trx: DB, deps: NoticeDeps, commentId: string): Promise<void> {
  const [comment] = await waitingComments(trx, { id: commentId, limit: 1 });
  if (!comment) return;
  const settings = await getSiteSettings(trx);
  for (const admin of await adminRecipients(trx)) {
    const { t } = createI18n(admin.locale);
    const site = siteNameIn(settings, admin.locale);
    const vars = {
      site,
      url: queueUrl(deps),
      ...mailVars(comment, admin.locale, t("post:notify.someone")),
    };
    await deps.mailer.send(
      {
        to: admin.email,
        subject: t("post:notify.moderation.subject", vars),
        text: t("post:notify.moderation.body", vars),
        fromName: site,
      },
      { key: moderationKey(comment.id, admin.id), kind: "moderation", trx },
    );
  }
}

/** The UTC day of `now`, as the digest's key has it. */
export const digestDay = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Today's digest: from DIGEST_HOUR_UTC on, when comments wait, one mail to each admin
 * who has not had today's yet (keyed by day and admin, so a rerun, a second instance or
 * a restart never sends another). Returns how many admins were mailed now.
 */
export async function queueModerationDigest(db: DB, deps: NoticeDeps, now = new Date()): Promise<number> {
  if (now.getUTCHours() < DIGEST_HOUR_UTC) return 0;
  const day = digestDay(now);
  const admins = await adminRecipients(db);
  if (admins.length === 0) return 0;
  const keys = admins.map((a) => digestKey(day, a.id));
  const sent = new Set(
    (await db.selectFrom("mailOutbox").select("key").where("key", "in", keys).execute()).map((r) => r.key),
  );
  const due = admins.filter((a) => !sent.has(digestKey(day, a.id)));
  if (due.length === 0) return 0;
  const total = await pendingCommentCount(db);
  if (total === 0) return 0;
  const comments = await waitingComments(db, { limit: DIGEST_LIST_LIMIT });
  const settings = await getSiteSettings(db);
  for (const admin of due) {
    const site = siteNameIn(settings, admin.locale);
    const { t } = createI18n(admin.locale);
    const someone = t("post:notify.someone");
    const lines = comments.map((c) => t("post:notify.digest.line", mailVars(c, admin.locale, someone)));
    if (total > comments.length) lines.push(t("post:notify.digest.more", { count: total - comments.length }));
    const vars = { site, url: queueUrl(deps), count: total, list: lines.join("\n") };
    await deps.mailer.send(
      {
        to: admin.email,
        subject: t("post:notify.digest.subject", vars),
        text: t("post:notify.digest.body", vars),
        fromName: site,
      },
      { key: digestKey(day, admin.id), kind: "moderation-digest" },
    );
  }
  return due.length;
}

/**
 * Runs the digest every `intervalMs` on the holder of its lease while the site
 * setting says "daily" (read on every run, so a change applies at once).
 */
export function startModerationDigest(
  db: DB,
  deps: NoticeDeps,
  log: Logger,
  opts: { intervalMs?: number; holder?: string; now?: () => Date } = {},
): LeasedJob {
  const { intervalMs = DIGEST_INTERVAL_MS, holder, now = () => new Date() } = opts;
  return startLeasedJob(db, log, {
    name: DIGEST_LEASE,
    intervalMs,
    ...(holder ? { holder } : {}),
    run: async () => {
      if ((await getSiteSettings(db)).moderationNotice !== "daily") return;
      const mailed = await queueModerationDigest(db, deps, now());
      if (mailed > 0) log.info({ admins: mailed }, "queued the moderation digest");
    },
  });
}
