import { createHmac, timingSafeEqual } from "node:crypto";

// A link that names one record and proves we made it, with nothing stored: `{id}.{mac}`,
// the MAC an HMAC under the auth secret of a purpose, the id and (optionally) a value
// of the record that must still be the same for the link to work. Used by the reply
// mail's stop link and the newsletter's unsubscribe link. Changing AUTH_SECRET
// invalidates every link made before.

const ID = /^[A-Za-z0-9_-]{1,64}$/;

function mac(secret: string, purpose: string, id: string, bound: string): Buffer {
  return createHmac("sha256", secret).update(`${purpose}:${id}:${bound}`).digest();
}

/** The token for `id`; `bound` (e.g. a stored hash) must be the same when it is checked. */
export function signId(secret: string, purpose: string, id: string, bound = ""): string {
  return `${id}.${mac(secret, purpose, id, bound).toString("base64url")}`;
}

/** The id a token names when it has the right shape (its MAC still to be checked), else null. */
export function idOfSignedToken(token: string): string | null {
  if (token.length > 200) return null;
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return null;
  const id = token.slice(0, dot);
  return ID.test(id) ? id : null;
}

/**
 * Whether `token` was made by signId for this purpose, id and bound value. The text is
 * compared, not the decoded MAC: base64url's last character carries spare bits, and a
 * token differing only there must not pass.
 */
export function signedIdMatches(secret: string, purpose: string, token: string, id: string, bound = ""): boolean {
  if (idOfSignedToken(token) !== id) return false;
  const given = Buffer.from(token);
  const expected = Buffer.from(signId(secret, purpose, id, bound));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
