import type { CommentStoredHook } from "../repos/comments.server.ts";
import type { NoticeDeps } from "./notices.server.ts";
import { queueReplyNotices } from "./replies.server.ts";

/**
 * The mail a new comment causes, queued in the transaction that stores it: a reply
 * readers can see at once notifies the comment replied to.
 */
export function commentMail(deps: NoticeDeps): CommentStoredHook {
  return async (trx, comment) => {
    if (comment.status === "approved" && comment.parentId) await queueReplyNotices(trx, deps, [comment.id]);
  };
}
