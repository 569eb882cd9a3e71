/**
 * A URL slug: lower-case ASCII letters, digits and hyphens. Text with no ASCII
 * letters or digits (a Chinese name, say) gives "" and the caller picks another.
 * Shared by the server and the editor (which shows the slug a title would get).
 */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
}
