import { sql } from "kysely";
import { HAN, shortSlug, slugFromNames, slugify } from "../../lib/slug.ts";
import { TERM_SORTS, type TermKind, type TermSort, termName } from "../../lib/terms.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { type CountValue, containsText, countRows, isUniqueViolation } from "../db/query.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";

export interface Term {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
}

export { slugify } from "../../lib/slug.ts";
export { termName };

export async function listCategories(db: DB): Promise<Term[]> {
  return db
    .selectFrom("categories")
    .select(["id", "slug", "nameEn", "nameZh"])
    .orderBy("sortOrder")
    .orderBy("slug")
    .execute();
}

export async function findCategoryBySlug(db: DB, slug: string): Promise<Term | undefined> {
  return db
    .selectFrom("categories")
    .select(["id", "slug", "nameEn", "nameZh"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

export async function findTagBySlug(db: DB, slug: string): Promise<Term | undefined> {
  return db.selectFrom("tags").select(["id", "slug", "nameEn", "nameZh"]).where("slug", "=", slug).executeTakeFirst();
}

export async function createCategory(
  db: DB,
  input: { slug: string; nameEn: string; nameZh: string; description?: string; sortOrder?: number },
): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("categories")
    .values({ id, ...input, createdAt: now, updatedAt: now })
    .execute();
  return id;
}

/**
 * The ids of tags with these names, creating the missing ones (the editor's
 * "create on the fly"). A name matches an existing tag by either language's
 * name, case-insensitively, or by slug. New tags get the name in both
 * languages and a slug from it (a random one when the name has no ASCII).
 * Safe against a concurrent creator of the same tag: the unique slug decides.
 */
export async function ensureTags(db: DB, names: readonly string[]): Promise<string[]> {
  const wanted = [
    ...new Map(
      names
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => [n.toLowerCase(), n]),
    ).values(),
  ];
  const ids: string[] = [];
  for (const name of wanted) {
    const id = await ensureTerm(db, "tags", name);
    if (id && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * The tag or category of this name (in either language, any case) or slug, made when there is
 * none, with the name in both languages and a slug from it (a random one when the name has no
 * ASCII); null only if a concurrent creator's row vanished at once. Safe against a concurrent
 * creator of the same term: the unique slug decides.
 */
export async function ensureTerm(db: DB, table: "tags" | "categories", name: string): Promise<string | null> {
  const lower = name.toLowerCase();
  const slug = slugify(name) || `${table === "tags" ? "t" : "c"}-${newId().slice(0, 8)}`;
  const find = () =>
    db
      .selectFrom(table)
      .select("id")
      .where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["nameEn"]), "=", lower),
          eb(eb.fn("lower", ["nameZh"]), "=", lower),
          eb("slug", "=", slug),
        ]),
      )
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  const now = nowIso();
  await db
    .insertInto(table)
    .values({ id: newId(), slug, nameEn: name, nameZh: name, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("slug").doNothing())
    .execute();
  return (await find())?.id ?? null;
}

export type { TermKind };

export interface AdminTerm extends Term {
  description: string;
  sortOrder: number;
  /** Posts (not in the trash) using it, any status. */
  postCount: number;
  updatedAt: string;
}

export { TERM_SORTS };

/**
 * Categories or tags for the admin list: search over both names and the slug,
 * a sort from the allowlist, pages, and each term's post count, in one query
 * for the page and one for the total.
 */
export async function listTermsForAdmin(
  db: DB,
  kind: TermKind,
  opts: { q?: string; sort?: string; page: number; pageSize: number },
): Promise<AdminPage<AdminTerm>> {
  const q = opts.q?.trim() ?? "";
  const sort: TermSort = (TERM_SORTS as readonly string[]).includes(opts.sort ?? "")
    ? (opts.sort as TermSort)
    : "order";
  const search = containsText(["t.nameEn", "t.nameZh", "t.slug"], q);
  const total =
    kind === "category"
      ? await countRows(db.selectFrom("categories as t").$if(q !== "", (qb) => qb.where(search)))
      : await countRows(db.selectFrom("tags as t").$if(q !== "", (qb) => qb.where(search)));

  const postCount =
    kind === "category"
      ? sql<CountValue>`(select count(*) from "posts" p where p."categoryId" = t."id" and p."deletedAt" is null)`
      : sql<CountValue>`(select count(*) from "postTags" pt join "posts" p on p."id" = pt."postId" where pt."tagId" = t."id" and p."deletedAt" is null)`;
  const order = {
    order: sql`${kind === "category" ? sql`t."sortOrder"` : sql`t."slug"`} asc`,
    name: sql`lower(t."nameEn") asc`,
    slug: sql`t."slug" asc`,
    posts: sql`"postCount" desc`,
    updated: sql`t."updatedAt" desc`,
  }[sort];

  return adminPage(total, opts, async (limit, offset) => {
    const rows =
      kind === "category"
        ? await db
            .selectFrom("categories as t")
            .$if(q !== "", (qb) => qb.where(search))
            .select([
              "t.id",
              "t.slug",
              "t.nameEn",
              "t.nameZh",
              "t.description",
              "t.sortOrder",
              "t.updatedAt",
              postCount.as("postCount"),
            ])
            .orderBy(order)
            .orderBy("t.id")
            .limit(limit)
            .offset(offset)
            .execute()
        : (
            await db
              .selectFrom("tags as t")
              .$if(q !== "", (qb) => qb.where(search))
              .select(["t.id", "t.slug", "t.nameEn", "t.nameZh", "t.updatedAt", postCount.as("postCount")])
              .orderBy(order)
              .orderBy("t.id")
              .limit(limit)
              .offset(offset)
              .execute()
          ).map((r) => ({ ...r, description: "", sortOrder: 0 }));
    return rows.map((r) => ({ ...r, postCount: Number(r.postCount) }));
  });
}

export async function getTerm(db: DB, kind: TermKind, id: string): Promise<AdminTerm | undefined> {
  const list = kind === "category" ? "categories" : "tags";
  const row =
    list === "categories"
      ? await db
          .selectFrom("categories")
          .select(["id", "slug", "nameEn", "nameZh", "description", "sortOrder", "updatedAt"])
          .where("id", "=", id)
          .executeTakeFirst()
      : await db
          .selectFrom("tags")
          .select(["id", "slug", "nameEn", "nameZh", "updatedAt"])
          .where("id", "=", id)
          .executeTakeFirst()
          .then((r) => (r ? { ...r, description: "", sortOrder: 0 } : undefined));
  if (!row) return undefined;
  const postCount =
    kind === "category"
      ? await countRows(db.selectFrom("posts").where("categoryId", "=", id).where("deletedAt", "is", null))
      : await countRows(
          db
            .selectFrom("postTags as pt")
            .innerJoin("posts as p", "p.id", "pt.postId")
            .where("pt.tagId", "=", id)
            .where("p.deletedAt", "is", null),
        );
  return { ...row, postCount };
}

export interface TermInput {
  slug: string;
  nameEn: string;
  nameZh: string;
  description: string;
  sortOrder: number;
}

/** "slugTaken" when another term of the kind has the slug (checked, and enforced by the unique index). */
export type TermWriteResult = { ok: true; id: string } | { ok: false; reason: "slugTaken" | "notFound" };

async function slugTaken(db: DB, kind: TermKind, slug: string, exceptId: string | null): Promise<boolean> {
  const row =
    kind === "category"
      ? await db.selectFrom("categories").select("id").where("slug", "=", slug).executeTakeFirst()
      : await db.selectFrom("tags").select("id").where("slug", "=", slug).executeTakeFirst();
  return row !== undefined && row.id !== exceptId;
}

/**
 * A free slug for a term whose form left the slug empty: from the English name,
 * else the Chinese one as pinyin; "-2" … "-9" when a homophone has it; a short id
 * when the names have nothing to spell (symbols only) or every candidate is taken.
 */
export async function generateTermSlug(
  db: DB,
  kind: TermKind,
  names: readonly string[],
  exceptId: string | null,
): Promise<string> {
  return freeSlugFromNames(names, (candidate) => slugTaken(db, kind, candidate, exceptId));
}

/**
 * The first free slug from `names` (English first, Chinese as pinyin), then "-2" … "-9",
 * then a short id: the rule terms and series share (docs/decisions/016-admin-slugs-times.md).
 */
export async function freeSlugFromNames(
  names: readonly string[],
  taken: (slug: string) => Promise<boolean>,
): Promise<string> {
  // pinyin-pro's dictionary (~15 MiB resident) is loaded only when a name has Chinese in it.
  const toPinyin = names.some((name) => HAN.test(name)) ? (await import("../../lib/pinyin.ts")).toPinyin : undefined;
  const base = slugFromNames(names, toPinyin).slice(0, 77).replace(/-+$/, "");
  if (base) {
    for (let n = 1; n <= 9; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!(await taken(candidate))) return candidate;
    }
  }
  return shortSlug(newId());
}

/** Creates (id null) or updates a category or tag. */
export async function saveTerm(db: DB, kind: TermKind, id: string | null, input: TermInput): Promise<TermWriteResult> {
  if (await slugTaken(db, kind, input.slug, id)) return { ok: false, reason: "slugTaken" };
  const now = nowIso();
  try {
    if (id === null) {
      const newTermId = newId();
      if (kind === "category") {
        await db
          .insertInto("categories")
          .values({ id: newTermId, ...input, createdAt: now, updatedAt: now })
          .execute();
      } else {
        const { slug, nameEn, nameZh } = input;
        await db
          .insertInto("tags")
          .values({ id: newTermId, slug, nameEn, nameZh, createdAt: now, updatedAt: now })
          .execute();
      }
      return { ok: true, id: newTermId };
    }
    const result =
      kind === "category"
        ? await db
            .updateTable("categories")
            .set({ ...input, updatedAt: now })
            .where("id", "=", id)
            .executeTakeFirst()
        : await db
            .updateTable("tags")
            .set({ slug: input.slug, nameEn: input.nameEn, nameZh: input.nameZh, updatedAt: now })
            .where("id", "=", id)
            .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? { ok: true, id } : { ok: false, reason: "notFound" };
  } catch (error) {
    // Two admins saving the same slug at once: the index decides, the loser gets the field error.
    if (isUniqueViolation(error)) return { ok: false, reason: "slugTaken" };
    throw error;
  }
}

/**
 * Deletes a category, moving its posts to `moveTo` (another category) or to
 * none. Call inside a transaction. False when it does not exist.
 */
export async function deleteCategory(db: DB, id: string, moveTo: string | null): Promise<boolean> {
  if (moveTo === id) moveTo = null;
  await db.updateTable("posts").set({ categoryId: moveTo }).where("categoryId", "=", id).execute();
  const result = await db.deleteFrom("categories").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes a tag (its post links go with it). */
export async function deleteTag(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("tags").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Merges tag `from` into tag `into`: every post tagged `from` ends up tagged
 * `into` (once), and `from` is deleted. Call inside a transaction.
 */
export async function mergeTags(db: DB, from: string, into: string): Promise<boolean> {
  if (from === into) return false;
  const target = await db.selectFrom("tags").select("id").where("id", "=", into).executeTakeFirst();
  if (!target) return false;
  await db
    .insertInto("postTags")
    .columns(["postId", "tagId"])
    .expression((eb) =>
      eb
        .selectFrom("postTags as s")
        .select(["s.postId", eb.val(into).as("tagId")])
        .where("s.tagId", "=", from)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom("postTags as e")
                .select("e.postId")
                .whereRef("e.postId", "=", "s.postId")
                .where("e.tagId", "=", into),
            ),
          ),
        ),
    )
    .execute();
  return deleteTag(db, from);
}

export interface CategoryCount extends Term {
  /** Published posts not in the trash. */
  postCount: number;
}

/** Every category with at least one published post (not in the trash), with that count. */
export async function categoryPostCounts(db: DB): Promise<CategoryCount[]> {
  const rows = await db
    .selectFrom("categories as c")
    .innerJoin("posts as p", "p.categoryId", "c.id")
    .where(wherePublic("p"))
    .groupBy(["c.id", "c.slug", "c.nameEn", "c.nameZh"])
    .select(["c.id", "c.slug", "c.nameEn", "c.nameZh", (eb) => eb.fn.countAll<number | string | bigint>().as("n")])
    .execute();
  return rows.map((r) => ({ id: r.id, slug: r.slug, nameEn: r.nameEn, nameZh: r.nameZh, postCount: Number(r.n) }));
}

/** One collator per language, made once: building one costs more than the sort (every page's nav). */
const collators = new Map<Locale, Intl.Collator>();
function collatorFor(locale: Locale): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    collator = new Intl.Collator(locale === "en" ? "en" : "zh");
    collators.set(locale, collator);
  }
  return collator;
}

/**
 * The `limit` categories with the most published posts; ties go by the name in
 * `locale` (so the pick can differ a little between languages).
 */
export function pickPopularCategories(
  counts: readonly CategoryCount[],
  locale: Locale,
  limit = 4,
): Array<{ id: string; slug: string; name: string; postCount: number }> {
  const collator = collatorFor(locale);
  return counts
    .map((c) => ({ id: c.id, slug: c.slug, name: termName(c, locale), postCount: c.postCount }))
    .sort((a, b) => b.postCount - a.postCount || collator.compare(a.name, b.name) || a.slug.localeCompare(b.slug))
    .slice(0, limit);
}
