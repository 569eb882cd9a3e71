/** The value of cookie `name` in a Cookie header, or null. The first occurrence wins. */
export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader || cookieHeader.length > 8192) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
