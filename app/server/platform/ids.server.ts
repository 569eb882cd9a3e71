import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * App-generated record ids: 20 characters of Crockford base32 (100 random bits),
 * URL-safe and the same on every dialect.
 */
export function newId(): string {
  const bytes = randomBytes(20);
  let id = "";
  for (const b of bytes) id += ALPHABET[b & 31];
  return id;
}
