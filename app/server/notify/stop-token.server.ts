import { createHmac, timingSafeEqual } from "node:crypto";

// The one-click "stop reply notifications" link: `{userId}.{mac}`, the MAC an HMAC of
// the user id under the auth secret. Stateless and without expiry: all it can do is
// turn one user's reply mail off, which is what its holder asked for, and a link in an
// old mail must still work. Changing AUTH_SECRET invalidates every link sent before.

const PURPOSE = "reply-notifications:stop:";

function mac(secret: string, userId: string): Buffer {
  return createHmac("sha256", secret)
    .update(PURPOSE + userId)
    .digest();
}

/** The token of the stop link in a reply mail to `userId`. */
export function replyStopToken(secret: string, userId: string): string {
  return `${userId}.${mac(secret, userId).toString("base64url")}`;
}

/** The user a stop token was made for, or null when it is malformed or not ours. */
export function verifyReplyStopToken(secret: string, token: string): string | null {
  if (token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const userId = token.slice(0, dot);
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(userId)) return null;
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  const expected = mac(secret, userId);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return userId;
}
