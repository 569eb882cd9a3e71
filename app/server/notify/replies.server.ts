import { pickTitle } from "../../lib/admin-content.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { excerpt } from "../comments/comment-moderation.server.ts";
import type { DB } from "../db/db.server.ts";
import { siteNameIn } from "../mail/site-name.server.ts";
import { displayName } from "../posts/post-detail.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";
import { getSiteSettings } from "../site/site-settings.server.ts";
import { type NoticeDeps, recipientLocale } from "./notices.server.ts";
import { replyStopToken } from "./stop-token.server.ts";

/** How much of a reply its notification quotes. */
export const REPLY_EXCERPT_LENGTH = 300;

/** The outbox key of the notification about one reply: at most one mail per reply, ever. */
export const replyKey = (replyId: string) => `reply:${replyId}`;

/**
 * Queues, in `trx` (the transaction that made the replies visible), one mail per
 * reply among `replyIds` that readers can now see, to the author of the comment
 * replied to. Nothing for: a comment that is not an approved reply, a reply under
 * a comment that is not approved, a reply on a post readers cannot see, a reply to
 * oneself, a reply whose author or parent's author account is gone, a parent author
 * without a verified address, banned, or with reply notifications off. A reply notified before (its key) is not again,
 * however often it is approved.
 */
export async function queueReplyNotices(trx: DB, deps: NoticeDeps, replyIds: readonly string[]): Promise<void> {
  const ids = [...new Set(replyIds)];
  if (ids.length === 0) return;
  const rows = await trx
    .selectFrom("comments as r")
    .innerJoin("comments as parent", "parent.id", "r.parentId")
    .innerJoin("users as to", "to.id", "parent.authorId")
    .innerJoin("users as from", "from.id", "r.authorId")
    .innerJoin("posts as p", "p.id", "r.postId")
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .select([
      "r.id",
      "r.postId",
      "r.bodyMarkdown",
      "to.id as toId",
      "to.email as toEmail",
      "to.locale as toLocale",
      "from.name as fromName",
      "en.title as titleEn",
      "zh.title as titleZh",
    ])
    .where("r.id", "in", ids)
    .where("r.status", "=", "approved")
    // Under a hidden parent the reply is not shown either.
    .where("parent.status", "=", "approved")
    .whereRef("r.authorId", "!=", "parent.authorId")
    .where("to.emailVerified", "=", 1)
    .where("to.banned", "=", 0)
    .where("to.replyNotifications", "=", 1)
    .where(wherePublic("p"))
    .execute();

  const settings = rows.length > 0 ? await getSiteSettings(trx) : null;
  for (const row of rows) {
    const locale = recipientLocale(row.toLocale);
    const site = settings ? siteNameIn(settings, locale) : "";
    const { t } = createI18n(locale);
    const base = `${deps.publicUrl}/${locale}`;
    const stopUrl = `${base}/notifications/replies/stop?token=${encodeURIComponent(replyStopToken(deps.secret, row.toId))}`;
    const vars = {
      site,
      name: displayName(row.fromName) ?? t("post:notify.someone"),
      title: pickTitle(row.titleEn, row.titleZh, locale),
      excerpt: excerpt(row.bodyMarkdown, REPLY_EXCERPT_LENGTH),
      url: `${base}/posts/detail/${row.postId}#comment-${row.id}`,
      stopUrl,
    };
    await deps.mailer.send(
      {
        to: row.toEmail,
        subject: t("post:notify.reply.subject", vars),
        text: t("post:notify.reply.body", vars),
        fromName: site,
        // RFC 8058: a mail client's own "unsubscribe" button posts to the stop link.
        headers: { "List-Unsubscribe": `<${stopUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
      },
      { key: replyKey(row.id), kind: "reply", trx },
    );
  }
}
