import type { Locale } from "./i18n/locale.ts";

/** What a reader's 404 carries for the error page to offer instead (not-found.server.ts). */
export interface NotFoundHelp {
  recentPosts: { id: string; title: string; locale: Locale; publishedAt: string | null }[];
}

/** True when a thrown 404's data is a NotFoundHelp (other 404s carry nothing). */
export function isNotFoundHelp(value: unknown): value is NotFoundHelp {
  if (typeof value !== "object" || value === null) return false;
  const posts = (value as { recentPosts?: unknown }).recentPosts;
  return (
    Array.isArray(posts) &&
    posts.every(
      (p: unknown) =>
        typeof p === "object" &&
        p !== null &&
        typeof (p as { id?: unknown }).id === "string" &&
        typeof (p as { title?: unknown }).title === "string",
    )
  );
}
