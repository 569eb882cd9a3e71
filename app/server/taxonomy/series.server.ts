import { sql } from "kysely";
import type { FieldErrors } from "../../lib/forms.ts";
import { termName } from "../../lib/terms.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { type CountValue, containsText, countRows, isUniqueViolation } from "../db/query.server.ts";
import type { Locale, PostStatus } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";
import { freeSlugFromNames } from "./taxonomy.server.ts";

// Series (issue 23, docs/decisions/019-series.md): a named, ordered run of posts. A post
// belongs to at most one (posts.seriesId) at a part number (posts.seriesPosition). Parts
// are ordered by that number, then publish time, then id; readers see only published
// parts, numbered 1…n among themselves, so a draft part leaves no gap.

export interface SeriesRef {
  id: string;
  slug: string;
  nameEn: string;
  nameZh: string;
}

export interface AdminSeries extends SeriesRef {
  descriptionEn: string;
  descriptionZh: string;
  /** Posts in it (not in the trash), any status. */
  postCount: number;
  updatedAt: string;
}

export interface SeriesInput {
  slug: string;
  nameEn: string;
  nameZh: string;
  descriptionEn: string;
  descriptionZh: string;
}

const otherLocale = (l: Locale): Locale => (l === "en" ? "zh" : "en");
/** The later of two ISO times. */
const later = (a: string, b: string) => (a > b ? a : b);

/** The parts' order: part number (none last), then publish time, then id. */
const PART_ORDER = sql`coalesce(p."seriesPosition", 2147483647) asc, p."publishedAt" asc, p."id" asc`;

/** Every series, by name, for the editor's menu. */
export async function listSeriesOptions(db: DB): Promise<SeriesRef[]> {
  return db
    .selectFrom("series")
    .select(["id", "slug", "nameEn", "nameZh"])
    .orderBy(sql`lower("nameEn")`)
    .orderBy("id")
    .execute();
}

export async function getSeries(db: DB, id: string): Promise<AdminSeries | undefined> {
  const row = await db
    .selectFrom("series")
    .select(["id", "slug", "nameEn", "nameZh", "descriptionEn", "descriptionZh", "updatedAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const postCount = await countRows(db.selectFrom("posts").where("seriesId", "=", id).where("deletedAt", "is", null));
  return { ...row, postCount };
}

/** The admin list: search over both names and the slug, by name, with each series' post count. */
export async function listSeriesForAdmin(
  db: DB,
  opts: { q?: string; page: number; pageSize: number },
): Promise<AdminPage<AdminSeries>> {
  const q = opts.q?.trim() ?? "";
  const search = containsText(["s.nameEn", "s.nameZh", "s.slug"], q);
  const total = await countRows(db.selectFrom("series as s").$if(q !== "", (qb) => qb.where(search)));
  return adminPage(total, opts, async (limit, offset) => {
    const rows = await db
      .selectFrom("series as s")
      .$if(q !== "", (qb) => qb.where(search))
      .select([
        "s.id",
        "s.slug",
        "s.nameEn",
        "s.nameZh",
        "s.descriptionEn",
        "s.descriptionZh",
        "s.updatedAt",
        sql<CountValue>`(select count(*) from "posts" p where p."seriesId" = s."id" and p."deletedAt" is null)`.as(
          "postCount",
        ),
      ])
      .orderBy(sql`lower(s."nameEn")`)
      .orderBy("s.id")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ ...r, postCount: Number(r.postCount) }));
  });
}

async function seriesSlugTaken(db: DB, slug: string, exceptId: string | null): Promise<boolean> {
  const row = await db.selectFrom("series").select("id").where("slug", "=", slug).executeTakeFirst();
  return row !== undefined && row.id !== exceptId;
}

/** A free slug made from the names, as category and tag slugs are (pinyin for Chinese). */
export function generateSeriesSlug(db: DB, names: readonly string[], exceptId: string | null): Promise<string> {
  return freeSlugFromNames(names, (slug) => seriesSlugTaken(db, slug, exceptId));
}

export type SeriesWriteResult = { ok: true; id: string } | { ok: false; reason: "slugTaken" | "notFound" };

/** Creates (id null) or updates a series. */
export async function saveSeries(db: DB, id: string | null, input: SeriesInput): Promise<SeriesWriteResult> {
  if (await seriesSlugTaken(db, input.slug, id)) return { ok: false, reason: "slugTaken" };
  const now = nowIso();
  try {
    if (id === null) {
      const created = newId();
      await db
        .insertInto("series")
        .values({ id: created, ...input, createdAt: now, updatedAt: now })
        .execute();
      return { ok: true, id: created };
    }
    const result = await db
      .updateTable("series")
      .set({ ...input, updatedAt: now })
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? { ok: true, id } : { ok: false, reason: "notFound" };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: "slugTaken" };
    throw error;
  }
}

/**
 * Creates a series from the post editor's "new series" names (one name is used for both
 * languages when the other is empty), with a slug made from them. Call inside the save's
 * transaction.
 */
export async function createSeriesFromEditor(db: DB, names: { nameEn: string; nameZh: string }): Promise<string> {
  const nameEn = names.nameEn || names.nameZh;
  const nameZh = names.nameZh || names.nameEn;
  const id = newId();
  const now = nowIso();
  const made = await generateSeriesSlug(db, [nameEn, nameZh], null);
  // Another writer taking the same slug at this moment: a short id makes it unique.
  for (const slug of [made, `${made.slice(0, 70)}-${newId().slice(0, 6).toLowerCase()}`]) {
    const inserted = await db
      .insertInto("series")
      .values({ id, slug, nameEn, nameZh, createdAt: now, updatedAt: now })
      .onConflict((oc) => oc.column("slug").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return id;
  }
  throw new Error("could not make a free series slug");
}

/**
 * Deletes a series; its posts leave it (they keep everything else). Call inside a
 * transaction. Revisions keep the id they recorded: restoring one finds no series and
 * restores the post without one.
 */
export async function deleteSeries(db: DB, id: string): Promise<boolean> {
  await db.updateTable("posts").set({ seriesId: null, seriesPosition: null }).where("seriesId", "=", id).execute();
  const result = await db.deleteFrom("series").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function seriesExists(db: DB, id: string): Promise<boolean> {
  const row = await db.selectFrom("series").select("id").where("id", "=", id).executeTakeFirst();
  return row !== undefined;
}

export async function checkSeries(db: DB, seriesId: string | null | undefined): Promise<FieldErrors | null> {
  if (!seriesId) return null;
  return (await seriesExists(db, seriesId)) ? null : { seriesId: "editor:errors.seriesUnknown" };
}

/** The part number after the last one of the series (its posts not in the trash, any status). */
export async function nextSeriesPosition(db: DB, seriesId: string, exceptPostId: string | null): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select((eb) => eb.fn.max("seriesPosition").as("last"))
    .where("seriesId", "=", seriesId)
    .where("deletedAt", "is", null)
    .$if(exceptPostId !== null, (qb) => qb.where("id", "!=", exceptPostId ?? ""))
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

export interface SeriesPart {
  id: string;
  title: string;
  /** The language of the title shown: the reader's, else the other one. */
  locale: Locale;
  isFallback: boolean;
  publishedAt: string | null;
}

/** A series as readers see it: names in their language and its published parts in order. */
export interface PublicSeries {
  id: string;
  slug: string;
  name: string;
  description: string;
  parts: SeriesPart[];
  /** The latest change of a published part (for the sitemap and caches). */
  updatedAt: string | null;
}

/** The published parts of a series in order, with titles in `locale` (or the other language). */
export async function publishedParts(db: DB, seriesId: string, locale: Locale): Promise<SeriesPart[]> {
  const rows = await db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", otherLocale(locale)))
    .where("p.seriesId", "=", seriesId)
    .where(wherePublic("p"))
    .where((eb) => eb.or([eb("t.postId", "is not", null), eb("f.postId", "is not", null)]))
    .select(["p.id", "p.publishedAt", "t.title as title", "f.title as fallbackTitle"])
    .orderBy(PART_ORDER)
    .execute();
  return rows.map((r) => {
    const own = r.title !== null;
    return {
      id: r.id,
      title: (own ? r.title : r.fallbackTitle) ?? "",
      locale: own ? locale : otherLocale(locale),
      isFallback: !own,
      publishedAt: r.publishedAt,
    };
  });
}

/** The series `/series/{slug}` shows, or undefined when there is none or no part is published. */
export async function findPublicSeries(db: DB, slug: string, locale: Locale): Promise<PublicSeries | undefined> {
  const row = await db
    .selectFrom("series")
    .select(["id", "slug", "nameEn", "nameZh", "descriptionEn", "descriptionZh", "updatedAt"])
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (!row) return undefined;
  const parts = await publishedParts(db, row.id, locale);
  // A series with nothing published yet is not a page: its name would tell readers of drafts.
  if (parts.length === 0) return undefined;
  const description =
    (locale === "en" ? row.descriptionEn : row.descriptionZh) ||
    (locale === "en" ? row.descriptionZh : row.descriptionEn);
  return { id: row.id, slug: row.slug, name: termName(row, locale), description, parts, updatedAt: row.updatedAt };
}

/** The series box of a post page: the series, its published parts, and which one this post is. */
export interface SeriesBox {
  slug: string;
  name: string;
  parts: SeriesPart[];
  /** 1-based place of this post among the published parts; 0 when it is not one (a draft seen by its author). */
  current: number;
}

export async function seriesBoxForPost(
  db: DB,
  post: { id: string; seriesId: string | null },
  locale: Locale,
): Promise<SeriesBox | null> {
  if (!post.seriesId) return null;
  const series = await db
    .selectFrom("series")
    .select(["slug", "nameEn", "nameZh"])
    .where("id", "=", post.seriesId)
    .executeTakeFirst();
  if (!series) return null;
  const parts = await publishedParts(db, post.seriesId, locale);
  if (parts.length === 0) return null;
  return {
    slug: series.slug,
    name: termName(series, locale),
    parts,
    current: parts.findIndex((p) => p.id === post.id) + 1,
  };
}

/** A part as the admin's series page lists it: every status, with the stored part number. */
export interface AdminSeriesPart {
  id: string;
  title: string;
  status: PostStatus;
  seriesPosition: number | null;
}

/** Every part of a series not in the trash, in readers' order, titled in `locale` (or the other). */
export async function listSeriesParts(db: DB, seriesId: string, locale: Locale): Promise<AdminSeriesPart[]> {
  const rows = await db
    .selectFrom("posts as p")
    .leftJoin("postTranslations as t", (j) => j.onRef("t.postId", "=", "p.id").on("t.locale", "=", locale))
    .leftJoin("postTranslations as f", (j) => j.onRef("f.postId", "=", "p.id").on("f.locale", "=", otherLocale(locale)))
    .where("p.seriesId", "=", seriesId)
    .where("p.deletedAt", "is", null)
    .select(["p.id", "p.status", "p.seriesPosition", "t.title as title", "f.title as fallbackTitle"])
    .orderBy(PART_ORDER)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    title: r.title ?? r.fallbackTitle ?? "",
    status: r.status,
    seriesPosition: r.seriesPosition === null ? null : Number(r.seriesPosition),
  }));
}

/** Series with at least one published part, with that part's latest change (the sitemap). */
export async function sitemapSeries(db: DB): Promise<Array<{ slug: string; updatedAt: string }>> {
  const rows = await db
    .selectFrom("series as s")
    .innerJoin("posts as p", "p.seriesId", "s.id")
    .where(wherePublic("p"))
    .groupBy(["s.slug", "s.updatedAt"])
    .select(["s.slug", "s.updatedAt as seriesUpdatedAt", (eb) => eb.fn.max("p.updatedAt").as("updatedAt")])
    .orderBy("s.slug")
    .execute();
  return rows.map((r) => ({
    slug: r.slug,
    updatedAt: later(r.seriesUpdatedAt, r.updatedAt),
  }));
}
