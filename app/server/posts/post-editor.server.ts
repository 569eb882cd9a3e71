import type { Transaction } from "kysely";
import type { FieldErrors } from "../../lib/forms.ts";
import type { EditorInput, EditorTranslation } from "../../lib/schemas/post.ts";
import { slugify } from "../../lib/slug.ts";
import { audit } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { isUniqueViolation } from "../db/query.server.ts";
import type { Database, Locale, PostStatus } from "../db/schema.server.ts";
import { mediaImages } from "../media/media.server.ts";
import { newId } from "../platform/ids.server.ts";
import { renderPost } from "../render/post-render.server.ts";
import { checkSeries, createSeriesFromEditor, nextSeriesPosition } from "../taxonomy/series.server.ts";
import { ensureTags, type Term } from "../taxonomy/taxonomy.server.ts";
import { type LifecycleActor, type PostEvent, userActor, withPostLifecycle } from "./lifecycle.server.ts";
import { type EditingUser, editableBy } from "./post-access.server.ts";
import { displayName } from "./post-detail.server.ts";
import { contentOfInput, recordRevision, type SeriesPlace } from "./revisions.server.ts";
import { readTranslationTexts, settleTranslations } from "./translation-sync.server.ts";

// The admin post editor's data. Who may edit which post is one rule (posts/post-access.server.ts:
// an admin any post, anyone else their own), part of every WHERE clause, so a post the user may
// not edit behaves as if it did not exist. Editing never changes a post's author (its byline);
// the revision and the audit entry name the user who saved.
// Saves run in the post lifecycle (posts/lifecycle.server.ts), which writes the status and
// does what it calls for: newsletter, audit entry, search index, cached pages, Fediverse.

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}

export interface EditorTranslationData {
  title: string;
  summary: string;
  bodyMarkdown: string;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** A post as the editor loads it. */
export interface EditorPost {
  id: string;
  /** Who wrote it (the byline): editing never changes it. Null: no account (deleted since). */
  authorId: string | null;
  /** The author's display name, never their e-mail address; null without one. */
  authorName: string | null;
  slug: string;
  status: PostStatus;
  publishedAt: string | null;
  categoryId: string | null;
  coverImageUrl: string | null;
  coverAlt: string;
  seriesId: string | null;
  seriesPosition: number | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  /** The "email subscribers" box as last saved. */
  newsletter: boolean;
  /** Whether the post was mailed to subscribers already (then the box is not offered again). */
  newsletterSent: boolean;
  /** The "Share on the Fediverse" box as last saved. */
  federate: boolean;
  tags: Term[];
  translations: Partial<Record<Locale, EditorTranslationData>>;
}

export type SaveResult =
  | {
      ok: true;
      id: string;
      version: number;
      created: boolean;
      /** Whether readers could see the post before the save or can after it (status "published"). */
      public: { before: boolean; after: boolean };
      /**
       * Whether the save changed where the post is listed, not only what it says: its
       * date, address, category, tags or languages (always true for a new post).
       */
      moved: boolean;
    }
  /** Bad input only the database can tell (slug taken, unknown category): nothing was written. */
  | { ok: false; reason: "invalid"; fieldErrors: FieldErrors }
  /** The create form's idempotency key already made this post (a second submit of the same form). */
  | { ok: false; reason: "duplicate"; id: string }
  /** Someone saved a newer version since the form was loaded: nothing was written. */
  | { ok: false; reason: "conflict"; current: EditorPost }
  /** No such post that this user may edit (or it is in the trash). */
  | { ok: false; reason: "notFound" };

/** The post `postId` if `user` may edit it and it is not in the trash; else null. */
export async function loadPostForEdit(db: DB, postId: string, user: EditingUser): Promise<EditorPost | null> {
  const post = await db
    .selectFrom("posts")
    .select([
      "id",
      "authorId",
      "slug",
      "status",
      "publishedAt",
      "categoryId",
      "coverImageUrl",
      "coverAlt",
      "seriesId",
      "seriesPosition",
      "version",
      "createdAt",
      "updatedAt",
      "newsletter",
      "federate",
    ])
    .where("id", "=", postId)
    .where(editableBy(user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  if (!post) return null;
  const [translations, tags, send, author] = await Promise.all([
    db
      .selectFrom("postTranslations")
      .select(["locale", "title", "summary", "bodyMarkdown", "seoTitle", "seoDescription"])
      .where("postId", "=", postId)
      .execute(),
    db
      .selectFrom("postTags as pt")
      .innerJoin("tags as t", "t.id", "pt.tagId")
      .select(["t.id", "t.slug", "t.nameEn", "t.nameZh"])
      .where("pt.postId", "=", postId)
      .orderBy("t.slug")
      .execute(),
    db.selectFrom("newsletterSends").select("id").where("postId", "=", postId).executeTakeFirst(),
    post.authorId
      ? db.selectFrom("users").select("name").where("id", "=", post.authorId).executeTakeFirst()
      : undefined,
  ]);
  const byLocale: Partial<Record<Locale, EditorTranslationData>> = {};
  for (const { locale, ...t } of translations) byLocale[locale] = t;
  return {
    ...post,
    authorName: displayName(author?.name),
    seriesPosition: post.seriesPosition === null ? null : Number(post.seriesPosition),
    version: Number(post.version),
    newsletter: Number(post.newsletter) === 1,
    newsletterSent: send !== undefined,
    federate: Number(post.federate) === 1,
    tags,
    translations: byLocale,
  };
}

const SLUG_TAKEN: FieldErrors = { slug: "editor:errors.slugTaken" };

export async function slugOwner(db: DB, slug: string): Promise<string | null> {
  const row = await db.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The slug to save: the one typed (a field error when another post has it), or
 * one made from the English title (a random one without), with `-2`, `-3` … when
 * taken. Trashed posts keep their slugs.
 */
async function chooseSlug(
  db: DB,
  input: EditorInput,
  selfId: string,
  attempt: number,
): Promise<{ slug: string; generated: boolean } | { error: FieldErrors }> {
  if (input.slug) {
    const owner = await slugOwner(db, input.slug);
    return owner && owner !== selfId ? { error: SLUG_TAKEN } : { slug: input.slug, generated: false };
  }
  const english = input.translations.find((t) => t.locale === "en")?.title ?? "";
  const base = slugify(english).slice(0, 70).replace(/-+$/, "") || `post-${newId().slice(0, 8)}`;
  // A lost race for a generated slug retries with a random suffix.
  const candidates =
    attempt === 0
      ? [base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)]
      : [`${base}-${newId().slice(0, 6)}`];
  for (const slug of candidates) {
    const owner = await slugOwner(db, slug);
    if (!owner || owner === selfId) return { slug, generated: true };
  }
  return { slug: `${base}-${newId().slice(0, 6)}`, generated: true };
}

export async function checkCategory(db: DB, categoryId: string | null): Promise<FieldErrors | null> {
  if (!categoryId) return null;
  const row = await db.selectFrom("categories").select("id").where("id", "=", categoryId).executeTakeFirst();
  return row ? null : { categoryId: "editor:errors.categoryUnknown" };
}

/** The category and series the form names exist (a new series is made with the save). */
export async function checkTaxonomy(db: DB, input: EditorInput): Promise<FieldErrors | null> {
  return (
    (await checkCategory(db, input.categoryId)) ?? (input.newSeries ? null : await checkSeries(db, input.seriesId))
  );
}

/**
 * Where the save puts the post in a series: a new series made now (from the form's names),
 * or the chosen one; at the part number typed, else where it already is in that series,
 * else after the series' last part. Call inside the save's transaction.
 */
export async function placeInSeries(
  trx: DB,
  input: EditorInput,
  postId: string,
  current: SeriesPlace | null,
): Promise<SeriesPlace> {
  const seriesId = input.newSeries ? await createSeriesFromEditor(trx, input.newSeries) : (input.seriesId ?? null);
  if (!seriesId) return { seriesId: null, seriesPosition: null };
  if (input.seriesPosition) return { seriesId, seriesPosition: input.seriesPosition };
  if (current?.seriesId === seriesId && current.seriesPosition !== null) return current;
  return { seriesId, seriesPosition: await nextSeriesPosition(trx, seriesId, postId) };
}

/** Each language version rendered once, on save: HTML, table of contents, reading time. */
function rendered(db: DB, translations: readonly EditorTranslation[]) {
  return Promise.all(
    translations.map(async (t) => {
      const out = await renderPost(t.bodyMarkdown, t.locale, { media: (ids) => mediaImages(db, ids) });
      return { ...t, bodyHtml: out.html, tocJson: JSON.stringify(out.toc), readingMinutes: out.readingMinutes };
    }),
  );
}

/**
 * The stored publish time: a time typed in the form is kept at the precision
 * stored before when it is that time to the minute (the form shows minutes);
 * publishing without a time means now.
 */
function publishTime(input: EditorInput, previous: string | null, now: string): string | null {
  let at = input.publishAt;
  if (at && previous) {
    const prev = Date.parse(previous);
    if (!Number.isNaN(prev) && Math.floor(prev / 60_000) * 60_000 === Date.parse(at)) at = previous;
  }
  if (input.status === "published") return at ?? now;
  return at;
}

const MAX_SLUG_ATTEMPTS = 3;

/**
 * Creates a post of `authorId` from the editor. The form's idempotency key is
 * the post id: a second submit of the same form answers "duplicate" with that id.
 * Tags are created in the same transaction, so a refused post leaves nothing behind.
 */
export async function createEditorPost(
  db: DB,
  authorId: string,
  input: EditorInput,
  /** Who saves, for the audit entry (default: the author). */
  actor?: LifecycleActor,
): Promise<SaveResult> {
  if (input.translations.length === 0)
    return { ok: false, reason: "invalid", fieldErrors: { enTitle: "editor:errors.oneTitleRequired" } };
  const id = input.key ?? newId();
  const byKey = async (): Promise<SaveResult | null> => {
    const row = await db.selectFrom("posts").select("authorId").where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    return row.authorId === authorId
      ? { ok: false, reason: "duplicate", id }
      : { ok: false, reason: "invalid", fieldErrors: { form: "editor:errors.invalidForm" } };
  };
  const earlier = await byKey();
  if (earlier) return earlier;
  const categoryError = await checkTaxonomy(db, input);
  if (categoryError) return { ok: false, reason: "invalid", fieldErrors: categoryError };
  const translations = await rendered(db, input.translations);
  const now = nowIso();
  const by = actor ?? (await userActor(db, authorId));

  for (let attempt = 0; ; attempt++) {
    const chosen = await chooseSlug(db, input, id, attempt);
    if ("error" in chosen) return { ok: false, reason: "invalid", fieldErrors: chosen.error };
    try {
      await withPostLifecycle(db, by, async (life) => {
        const { trx } = life;
        const tagIds = await ensureTags(trx, input.tags);
        const series = await placeInSeries(trx, input, id, null);
        // Published at once with the box ticked: the lifecycle starts its newsletter with it.
        await life.create({
          id,
          slug: chosen.slug,
          authorId,
          status: input.status,
          publishedAt: publishTime(input, null, now),
          categoryId: input.categoryId,
          tagIds,
          coverImageUrl: input.coverImageUrl,
          coverAlt: input.coverAlt,
          newsletter: input.newsletter,
          federate: input.federate !== false,
          ...series,
          translations,
        });
        await recordRevision(trx, {
          postId: id,
          authorId,
          kind: "saved",
          content: contentOfInput(input, chosen.slug, publishTime(input, null, now), series),
          now,
        });
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Either the same form won the race (same key), or another post took the slug.
      const raced = await byKey();
      if (raced) return raced;
      if (chosen.generated && attempt + 1 < MAX_SLUG_ATTEMPTS) continue;
      return { ok: false, reason: "invalid", fieldErrors: SLUG_TAKEN };
    }
    return {
      ok: true,
      id,
      version: 1,
      created: true,
      public: { before: false, after: input.status === "published" },
      moved: true,
    };
  }
}

async function replaceTranslationsAndTags(
  trx: Transaction<Database>,
  postId: string,
  translations: Awaited<ReturnType<typeof rendered>>,
  tagIds: string[],
  now: string,
): Promise<void> {
  const locales = translations.map((t) => t.locale);
  await trx.deleteFrom("postTranslations").where("postId", "=", postId).where("locale", "not in", locales).execute();
  for (const t of translations) {
    const values = {
      title: t.title,
      summary: t.summary,
      bodyMarkdown: t.bodyMarkdown,
      bodyHtml: t.bodyHtml,
      tocJson: t.tocJson,
      readingMinutes: t.readingMinutes,
      seoTitle: t.seoTitle,
      seoDescription: t.seoDescription,
      updatedAt: now,
    };
    await trx
      .insertInto("postTranslations")
      .values({ postId, locale: t.locale, ...values, createdAt: now })
      .onConflict((oc) => oc.columns(["postId", "locale"]).doUpdateSet(values))
      .execute();
  }
  await trx.deleteFrom("postTags").where("postId", "=", postId).execute();
  if (tagIds.length > 0) {
    await trx
      .insertInto("postTags")
      .values(tagIds.map((tagId) => ({ postId, tagId })))
      .execute();
  }
}

/**
 * Saves the editor's form over post `postId`, which `user` may edit, only if it is still at
 * `input.version` (optimistic concurrency: the UPDATE's WHERE checks id, who may edit and
 * version, and bumps the version). Post, translations and tags change in one
 * transaction or not at all; the post keeps its author, the revision names `user`.
 */
export async function updateEditorPost(
  db: DB,
  user: EditingUser,
  postId: string,
  input: EditorInput,
  opts: {
    /** `coalesce: false`: the save's revision is a new one (a restore). */
    coalesce?: boolean;
    /** What the audit entry calls the save when the status stays (default "update"). */
    event?: PostEvent;
    /** Who saves, for the audit entry (default: `user`). */
    actor?: LifecycleActor;
  } = {},
): Promise<SaveResult> {
  const revision = opts.coalesce === undefined ? {} : { coalesce: opts.coalesce };
  const existing = await db
    .selectFrom("posts")
    .select(["slug", "publishedAt", "version", "status", "categoryId", "seriesId", "seriesPosition"])
    .where("id", "=", postId)
    .where(editableBy(user))
    .where("deletedAt", "is", null)
    .executeTakeFirst();
  if (!existing) return { ok: false, reason: "notFound" };
  if (input.version === undefined)
    return { ok: false, reason: "invalid", fieldErrors: { form: "editor:errors.invalidForm" } };
  if (input.translations.length === 0)
    return { ok: false, reason: "invalid", fieldErrors: { enTitle: "editor:errors.oneTitleRequired" } };
  const expected = input.version;
  const conflict = async (): Promise<SaveResult> => {
    const current = await loadPostForEdit(db, postId, user);
    return current ? { ok: false, reason: "conflict", current } : { ok: false, reason: "notFound" };
  };
  if (Number(existing.version) !== expected) return conflict();

  const categoryError = await checkTaxonomy(db, input);
  if (categoryError) return { ok: false, reason: "invalid", fieldErrors: categoryError };
  const stored: SeriesPlace = {
    seriesId: existing.seriesId,
    seriesPosition: existing.seriesPosition === null ? null : Number(existing.seriesPosition),
  };
  // An emptied slug keeps the post's address; a typed one must be free.
  let slug = existing.slug;
  if (input.slug && input.slug !== existing.slug) {
    const owner = await slugOwner(db, input.slug);
    if (owner && owner !== postId) return { ok: false, reason: "invalid", fieldErrors: SLUG_TAKEN };
    slug = input.slug;
  }
  const translations = await rendered(db, input.translations);
  const now = nowIso();

  const publishedAt = publishTime(input, existing.publishedAt, now);
  const by = opts.actor ?? (await userActor(db, user.id));
  let updated: { moved: boolean } | null;
  try {
    updated = await withPostLifecycle(db, by, async (life) => {
      const { trx } = life;
      const [oldTags, oldLocales] = await Promise.all([
        trx.selectFrom("postTags").select("tagId").where("postId", "=", postId).execute(),
        trx.selectFrom("postTranslations").select("locale").where("postId", "=", postId).execute(),
      ]);
      const series = await placeInSeries(trx, input, postId, stored);
      const result = await trx
        .updateTable("posts")
        .set((eb) => ({
          seriesId: series.seriesId,
          seriesPosition: series.seriesPosition,
          slug,
          publishedAt,
          categoryId: input.categoryId,
          coverImageUrl: input.coverImageUrl,
          coverAlt: input.coverAlt,
          // The box is offered until the post first goes live; a live post keeps what it had.
          ...(existing.status === "published" ? {} : { newsletter: input.newsletter ? 1 : 0 }),
          // A setting, not content: turning it off takes a federated post back (Delete).
          ...(input.federate === undefined ? {} : { federate: input.federate ? 1 : 0 }),
          updatedAt: now,
          version: eb("version", "+", 1),
        }))
        .where("id", "=", postId)
        .where(editableBy(user))
        .where("version", "=", expected)
        .where("deletedAt", "is", null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const tagIds = await ensureTags(trx, input.tags);
      const textsBefore = await readTranslationTexts(trx, postId);
      await replaceTranslationsAndTags(trx, postId, translations, tagIds, now);
      await settleTranslations(trx, postId, textsBefore, now);
      const content = contentOfInput(input, slug, publishedAt, series);
      await recordRevision(trx, { postId, authorId: user.id, kind: "saved", content, now, ...revision });
      const moved =
        slug !== existing.slug ||
        publishedAt !== existing.publishedAt ||
        input.categoryId !== existing.categoryId ||
        // The series boxes of the other parts list this one.
        series.seriesId !== stored.seriesId ||
        series.seriesPosition !== stored.seriesPosition ||
        !sameSet(
          oldTags.map((t) => t.tagId),
          tagIds,
        ) ||
        !sameSet(
          oldLocales.map((t) => t.locale),
          translations.map((t) => t.locale),
        );
      // The status last, with the box saved above: a post going live starts its newsletter here.
      await life.setStatus(postId, input.status, {
        event: opts.event ?? "update",
        visible: { before: existing.status === "published", after: input.status === "published" },
        moved,
      });
      return { moved };
    });
  } catch (error) {
    // Another post took the slug between the check and the write.
    if (isUniqueViolation(error)) return { ok: false, reason: "invalid", fieldErrors: SLUG_TAKEN };
    throw error;
  }
  if (!updated) return conflict();
  return {
    ok: true,
    id: postId,
    version: expected + 1,
    created: false,
    // Read with the version the save matched: a concurrent change would have been a conflict.
    public: { before: existing.status === "published", after: input.status === "published" },
    moved: updated.moved,
  };
}

/**
 * The "Share on the Fediverse" box of a live post saved with pending changes: a setting, it
 * applies at once (the federation sync then sends the post or takes it back). A change is
 * recorded in the audit log as `user`.
 */
export async function setPostFederate(db: DB, postId: string, user: EditingUser, federate: boolean): Promise<boolean> {
  const actor = await userActor(db, user.id);
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("posts")
      .set({ federate: federate ? 1 : 0 })
      .where("id", "=", postId)
      .where(editableBy(user))
      .where("deletedAt", "is", null)
      .where("federate", "=", federate ? 0 : 1)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, actor, "post.federate", { type: "post", id: postId }, { federate });
    return true;
  });
}
