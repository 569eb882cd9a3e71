import { idOfSignedToken, signedIdMatches, signId } from "../platform/signed-id.server.ts";

// The one-click "stop reply notifications" link: `{userId}.{mac}` (signed-id.server.ts).
// Stateless and without expiry: all it can do is turn one user's reply mail off, which
// is what its holder asked for, and a link in an old mail must still work.

const PURPOSE = "reply-notifications:stop";

/** The token of the stop link in a reply mail to `userId`. */
export function replyStopToken(secret: string, userId: string): string {
  return signId(secret, PURPOSE, userId);
}

/** The user a stop token was made for, or null when it is malformed or not ours. */
export function verifyReplyStopToken(secret: string, token: string): string | null {
  const userId = idOfSignedToken(token);
  return userId && signedIdMatches(secret, PURPOSE, token, userId) ? userId : null;
}
