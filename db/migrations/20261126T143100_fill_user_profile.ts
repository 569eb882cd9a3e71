import type { Kysely } from "kysely";

// Frozen once merged: never import app code here, never edit; add a new file instead.

interface Row {
  id: string;
  name: string | null;
  email: string;
  createdAt: string;
}

const localPart = (address: string | null | undefined) => address?.split("@")[0]?.trim() || null;

/**
 * Existing accounts keep the name readers already see: the name the pages showed
 * until now (an empty name, or one holding an address, was shown as the address's
 * local part) is written into `name` once, so nothing reads the e-mail address for
 * a name again. Every account gets its author-page handle: the name in lowercase
 * ASCII letters, digits and hyphens (at most 30), "author-" and a piece of the id
 * when nothing is left of it, "-2", "-3"… when taken.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const k = db as unknown as Kysely<{ users: Row & { handle: string | null } }>;
  const users = await k
    .selectFrom("users")
    .select(["id", "name", "email"])
    .orderBy("createdAt")
    .orderBy("id")
    .execute();
  const taken = new Set<string>();
  for (const u of users) {
    const trimmed = u.name?.trim() ?? "";
    const shown = trimmed
      ? trimmed.includes("@")
        ? (localPart(trimmed) ?? localPart(u.email))
        : trimmed
      : localPart(u.email);
    const name = [...(shown ?? "reader")].slice(0, 50).join("");
    const base =
      name
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 30)
        .replace(/-+$/, "") || `author-${u.id.slice(-6).toLowerCase()}`;
    let handle = base;
    for (let n = 2; taken.has(handle); n++) handle = `${base}-${n}`;
    taken.add(handle);
    await k.updateTable("users").set({ name, handle }).where("id", "=", u.id).execute();
  }
}

/** The names written stay (they are what readers saw); the handles go with their column. */
export async function down(): Promise<void> {}
