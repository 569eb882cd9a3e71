/** The longest bio the account page accepts (characters). */
export const BIO_MAX = 300;

/** The longest author-page handle (ASCII letters, digits and hyphens). */
export const HANDLE_MAX = 30;

/** What a handle may look like in a URL: lowercase letters and digits, single hyphens between. */
export const HANDLE_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The first handle tried for a new account: the display name in lowercase ASCII
 * letters, digits and hyphens (accents dropped), else "author-" and the end of the
 * account id. Never anything from the e-mail address.
 */
export function handleBase(name: string, id: string): string {
  const fromName = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, HANDLE_MAX)
    .replace(/-+$/, "");
  return fromName || `author-${id.slice(-6).toLowerCase()}`;
}
