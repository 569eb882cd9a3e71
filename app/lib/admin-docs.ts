/**
 * The operator's guides the admin shows at /admin/docs (the repository's docs/*.md): where a
 * page says "set by the server's configuration", it links here instead of naming variables.
 */
export const ADMIN_DOCS = ["configuration", "operations", "fediverse", "admin", "media", "accounts"] as const;

export type AdminDoc = (typeof ADMIN_DOCS)[number];

export function isAdminDoc(name: string): name is AdminDoc {
  return (ADMIN_DOCS as readonly string[]).includes(name);
}

/** The admin page of a guide. */
export const docHref = (doc: AdminDoc): string => `/admin/docs/${doc}`;
