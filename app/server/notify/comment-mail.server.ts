import type { CommentStoredHook } from "../comments/comments.server.ts";
import type { ModerationNotice } from "../site/site-settings.server.ts";
import { queueModerationNotices } from "./moderation.server.ts";
import type { NoticeDeps } from "./notices.server.ts";
import { queueReplyNotices } from "./replies.server.ts";

/**
 * The mail a new comment causes, queued in the transaction that stores it: a reply
 * readers can see at once notifies the comment replied to; a comment held for
 * moderation tells every admin when the site says "each" (the daily digest and
 * "off" send nothing now).
 */
export function commentMail(deps: NoticeDeps, moderationNotice: ModerationNotice): CommentStoredHook {
  return async (trx, comment) => {
    if (comment.status === "approved" && comment.parentId) await queueReplyNotices(trx, deps, [comment.id]);
    if (comment.status === "pending" && moderationNotice === "each")
      await queueModerationNotices(trx, deps, comment.id);
  };
}
