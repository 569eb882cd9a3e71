import { fromKey } from "../../lib/redirects.ts";
import type { PageStatus } from "../../lib/schemas/page.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import { newId } from "../platform/ids.server.ts";
import { isReservedFrom } from "../redirects/reserved.server.ts";

// Pages (issue 48, docs/decisions/035-pages-and-menus.md): bilingual Markdown at `/{slug}`,
// in a table of their own. No post query reads this table, so a page can never reach a post
// list, a feed, search, the newsletter or the Fediverse; the sitemap and menus ask here.

/** The pages the site links itself: their address is fixed and they cannot be deleted. */
export const SYSTEM_PAGES = ["about", "contact", "privacy"] as const;
export type SystemPage = (typeof SYSTEM_PAGES)[number];

export interface PageFields {
  slug: string;
  status: PageStatus;
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
  descriptionEn: string;
  descriptionZh: string;
}

export interface PageRow extends PageFields {
  id: string;
  systemKey: SystemPage | null;
  authorId: string | null;
  version: number;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = [
  "id",
  "slug",
  "systemKey",
  "status",
  "titleEn",
  "titleZh",
  "bodyEn",
  "bodyZh",
  "descriptionEn",
  "descriptionZh",
  "authorId",
  "version",
  "publishedAt",
  "createdAt",
  "updatedAt",
] as const;

type Selected = {
  id: string;
  slug: string;
  systemKey: string | null;
  status: "draft" | "published";
  titleEn: string;
  titleZh: string;
  bodyEn: string;
  bodyZh: string;
  descriptionEn: string;
  descriptionZh: string;
  authorId: string | null;
  version: number;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
};

const isSystemPage = (key: string | null): key is SystemPage =>
  key !== null && (SYSTEM_PAGES as readonly string[]).includes(key);

function toRow(row: Selected): PageRow {
  return { ...row, systemKey: isSystemPage(row.systemKey) ? row.systemKey : null, version: Number(row.version) };
}

/** Why an address cannot be a page's (a field error on the slug), or null when it can. */
export type SlugRefusal = "slugReserved" | "slugTaken" | "slugRedirected";

/**
 * The one check of a page's address: not a path the site answers itself (every route of
 * app/routes.ts with its language forms, and what is served before routing, the reserved
 * words of decision 012), not another page's, and not the from-path of a redirect (the old
 * link would silently stop leading where it did: the owner deletes the redirect first).
 */
export async function pageSlugRefusal(db: DB, slug: string, ownId: string | null): Promise<SlugRefusal | null> {
  if (isReservedFrom({ path: `/${slug}`, query: "" })) return "slugReserved";
  const other = await db
    .selectFrom("pages")
    .select("id")
    .where("slug", "=", slug)
    .$if(ownId !== null, (qb) => qb.where("id", "!=", ownId ?? ""))
    .executeTakeFirst();
  if (other) return "slugTaken";
  const froms = ["", "/en", "/zh"].map((prefix) => fromKey({ path: `${prefix}/${slug}`, query: "" }));
  const redirect = await db.selectFrom("redirects").select("id").where("fromPath", "in", froms).executeTakeFirst();
  return redirect ? "slugRedirected" : null;
}

export type PageSaveResult =
  | { ok: true; id: string }
  | { ok: false; error: SlugRefusal; field: "slug" }
  | { ok: false; error: "missing" | "conflict" };

/** The revision a save keeps: what the page held after it. */
export type PageContent = PageFields;

/** Within this long of its start, the same person's next save replaces a revision (decision 013). */
const COALESCE_MS = 10 * 60 * 1000;
/** At most this many revisions per page; the oldest go first. */
export const PAGE_REVISION_CAP = 50;

function fieldsOf(page: PageFields): PageContent {
  return {
    slug: page.slug,
    status: page.status,
    titleEn: page.titleEn,
    titleZh: page.titleZh,
    bodyEn: page.bodyEn,
    bodyZh: page.bodyZh,
    descriptionEn: page.descriptionEn,
    descriptionZh: page.descriptionZh,
  };
}

/** Keeps the page's new state as a revision (coalesced, capped), in the save's transaction. */
async function recordPageRevision(
  trx: DB,
  pageId: string,
  content: PageContent,
  actorId: string | null,
  opts: { coalesce: boolean; now: Date },
): Promise<void> {
  const now = nowIso(opts.now);
  const newest = await trx
    .selectFrom("pageRevisions")
    .select(["id", "authorId", "content", "createdAt"])
    .where("pageId", "=", pageId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const json = JSON.stringify(content);
  const sameStatus = newest ? (JSON.parse(newest.content) as PageContent).status === content.status : false;
  if (
    newest &&
    opts.coalesce &&
    sameStatus &&
    newest.authorId === actorId &&
    opts.now.getTime() - Date.parse(newest.createdAt) < COALESCE_MS
  ) {
    await trx.updateTable("pageRevisions").set({ content: json, updatedAt: now }).where("id", "=", newest.id).execute();
  } else {
    await trx
      .insertInto("pageRevisions")
      .values({ id: newId(), pageId, authorId: actorId, content: json, createdAt: now, updatedAt: now })
      .execute();
  }
  const beyond = await trx
    .selectFrom("pageRevisions")
    .select("id")
    .where("pageId", "=", pageId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .offset(PAGE_REVISION_CAP)
    .limit(1000)
    .execute();
  if (beyond.length > 0) {
    await trx
      .deleteFrom("pageRevisions")
      .where(
        "id",
        "in",
        beyond.map((r) => r.id),
      )
      .execute();
  }
}

/** Creates a page (its slug checked first: a refusal writes nothing). */
export async function createPage(
  db: DB,
  input: PageFields,
  actorId: string | null,
  now: Date = new Date(),
): Promise<PageSaveResult> {
  const refusal = await pageSlugRefusal(db, input.slug, null);
  if (refusal) return { ok: false, error: refusal, field: "slug" };
  const id = newId();
  const at = nowIso(now);
  await db
    .insertInto("pages")
    .values({
      id,
      ...fieldsOf(input),
      systemKey: null,
      authorId: actorId,
      publishedAt: input.status === "published" ? at : null,
      createdAt: at,
      updatedAt: at,
    })
    .execute();
  await recordPageRevision(db, id, fieldsOf(input), actorId, { coalesce: false, now });
  return { ok: true, id };
}

/**
 * Saves a page's fields. A system page keeps its address whatever the form said. With
 * `version`, a page saved by someone else since it was opened is a conflict, not overwritten.
 */
export async function updatePage(
  db: DB,
  id: string,
  input: PageFields,
  actorId: string | null,
  opts: { version?: number; coalesce?: boolean; now?: Date } = {},
): Promise<PageSaveResult> {
  const now = opts.now ?? new Date();
  const page = await getPage(db, id);
  if (!page) return { ok: false, error: "missing" };
  if (opts.version !== undefined && opts.version !== page.version) return { ok: false, error: "conflict" };
  const slug = page.systemKey ? page.slug : input.slug;
  if (slug !== page.slug) {
    const refusal = await pageSlugRefusal(db, slug, id);
    if (refusal) return { ok: false, error: refusal, field: "slug" };
  }
  const at = nowIso(now);
  const fields = fieldsOf({ ...input, slug });
  const result = await db
    .updateTable("pages")
    .set({
      ...fields,
      version: page.version + 1,
      publishedAt: input.status === "published" ? (page.publishedAt ?? at) : page.publishedAt,
      updatedAt: at,
    })
    .where("id", "=", id)
    .where("version", "=", page.version)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return { ok: false, error: "conflict" };
  await recordPageRevision(db, id, fields, actorId, { coalesce: opts.coalesce ?? true, now });
  return { ok: true, id };
}

/** Deletes a page and its revisions; a system page is never deleted (unpublish it instead). */
export async function deletePage(db: DB, id: string): Promise<"deleted" | "missing" | "system"> {
  const page = await getPage(db, id);
  if (!page) return "missing";
  if (page.systemKey) return "system";
  await db.deleteFrom("pageRevisions").where("pageId", "=", id).execute();
  await db.deleteFrom("pages").where("id", "=", id).execute();
  return "deleted";
}

export async function getPage(db: DB, id: string): Promise<PageRow | undefined> {
  const row = await db.selectFrom("pages").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The published page at `/{slug}` (slugs are matched in lower case, as they are written). */
export async function publishedPageBySlug(db: DB, slug: string): Promise<PageRow | undefined> {
  const row = await db
    .selectFrom("pages")
    .select(COLUMNS)
    .where("slug", "=", slug.toLowerCase())
    .where("status", "=", "published")
    .executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** Every page for the admin list, newest change first; `q` matches the address and titles. */
export async function listPagesForAdmin(
  db: DB,
  opts: { q?: string; page: number; pageSize: number },
): Promise<AdminPage<PageRow>> {
  const q = opts.q?.trim() ?? "";
  const base = db.selectFrom("pages").$if(q !== "", (qb) => qb.where(containsText(["slug", "titleEn", "titleZh"], q)));
  return adminPage(await countRows(base), opts, async (limit, offset) =>
    (await base.select(COLUMNS).orderBy("updatedAt", "desc").orderBy("id").limit(limit).offset(offset).execute()).map(
      toRow,
    ),
  );
}

/** The published pages for the sitemap: their address, the languages with a title, the last change. */
export async function sitemapPages(db: DB): Promise<Array<{ slug: string; updatedAt: string }>> {
  return db
    .selectFrom("pages")
    .select(["slug", "updatedAt"])
    .where("status", "=", "published")
    .orderBy("slug")
    .execute();
}

export interface PageRevision {
  id: string;
  authorId: string | null;
  createdAt: string;
  updatedAt: string;
  content: PageContent;
}

/** A page's revisions, newest first. */
export async function listPageRevisions(db: DB, pageId: string): Promise<PageRevision[]> {
  const rows = await db
    .selectFrom("pageRevisions")
    .select(["id", "authorId", "content", "createdAt", "updatedAt"])
    .where("pageId", "=", pageId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((r) => ({ ...r, content: JSON.parse(r.content) as PageContent }));
}

/**
 * Brings back a revision's text (titles, bodies, descriptions); the page keeps its address
 * and status, as a restored post does (decision 013). Always a new revision.
 */
export async function restorePageRevision(
  db: DB,
  pageId: string,
  revisionId: string,
  actorId: string | null,
  now: Date = new Date(),
): Promise<PageSaveResult> {
  const [page, revision] = await Promise.all([
    getPage(db, pageId),
    db
      .selectFrom("pageRevisions")
      .select("content")
      .where("id", "=", revisionId)
      .where("pageId", "=", pageId)
      .executeTakeFirst(),
  ]);
  if (!page || !revision) return { ok: false, error: "missing" };
  const content = JSON.parse(revision.content) as PageContent;
  return updatePage(db, pageId, { ...content, slug: page.slug, status: page.status }, actorId, {
    coalesce: false,
    now,
  });
}
