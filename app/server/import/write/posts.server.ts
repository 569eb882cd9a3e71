import type { Transaction } from "kysely";
import { type EditorInput, POST_LIMITS, SLUG_PATTERN } from "../../../lib/schemas/post.ts";
import { slugify } from "../../../lib/slug.ts";
import type { Database } from "../../db/schema.server.ts";
import { newId } from "../../platform/ids.server.ts";
import type { PostLife } from "../../posts/lifecycle.server.ts";
import { contentOfInput, recordRevision } from "../../posts/revisions.server.ts";
import { markTranslationsInLine } from "../../posts/translation-sync.server.ts";
import { ensureTags, ensureTerm } from "../../taxonomy/taxonomy.server.ts";
import type { ImportedPost } from "../core.server.ts";
import { mappedTarget, mappingOf, rememberTarget } from "../import-sources.server.ts";
import type { ChunkLookups, ImportJob, Prepared } from "../job/types.server.ts";
import { importedAuthorId } from "./authors.server.ts";
import { writeComments } from "./comments.server.ts";

// One prepared post written in its chunk's transaction, through the post lifecycle (the only
// writer of a post's status): created, or updated when the source changed and the post was not
// edited here since, or skipped with a reason; with its category, tags, revisions and comments,
// and its mapping (entity `post`) moved to the source's hash and the post's new version.

export type Written =
  | { outcome: "imported" | "updated"; postId: string; comments: number }
  | { outcome: "skipped"; reason: string };

/** Writes one prepared post inside the chunk's transaction: created, updated, or skipped with a reason. */
export async function writePost(
  life: PostLife,
  job: ImportJob,
  p: Prepared,
  now: string,
  known: ChunkLookups,
): Promise<Written> {
  const { trx } = life;
  const { post } = p;
  const tagNames = post.tags.map((t) => t.slice(0, POST_LIMITS.tagMax).trim()).filter(Boolean);
  const [firstCategory, ...otherCategories] = post.categories;
  // One category per post: the first; the others become tags.
  const allTags = [...tagNames, ...otherCategories.map((c) => c.slice(0, POST_LIMITS.tagMax))].slice(
    0,
    POST_LIMITS.tagsMax,
  );
  if (tagNames.length + otherCategories.length > POST_LIMITS.tagsMax)
    p.lines.push({ item: post.label, outcome: "note", reason: "tagsCut", detail: `kept ${POST_LIMITS.tagsMax}` });
  const mapped = await mappingOf(trx, job.kind, post.sourceId);
  const existing = mapped
    ? await trx
        .selectFrom("posts")
        .select(["id", "slug", "version", "deletedAt", "publishedAt"])
        .where("id", "=", mapped.targetId)
        .executeTakeFirst()
    : undefined;
  if (mapped && existing) {
    if (existing.deletedAt) return { outcome: "skipped", reason: "inTrash" };
    if (mapped.hash === p.hash) return { outcome: "skipped", reason: "unchanged" };
    if (Number(existing.version) !== Number(mapped.targetVersion))
      return { outcome: "skipped", reason: "editedSinceImport" };
  }
  const authorId = (await importedAuthorId(trx, job, post, p.lines, now, known)) ?? job.authorId;
  const categoryId = firstCategory ? await ensureCategory(trx, firstCategory.slice(0, 100)) : null;
  const tagIds = await ensureTags(trx, allTags);
  const status = post.status;
  const input: EditorInput = {
    slug: "",
    categoryId,
    tags: allTags,
    coverImageUrl: p.coverUrl,
    coverAlt: post.coverAlt.slice(0, POST_LIMITS.coverAltMax),
    status,
    publishAt: post.publishedAt,
    newsletter: false,
    translations: p.translations.map((t) => ({
      locale: t.locale,
      title: t.title,
      summary: t.summary,
      bodyMarkdown: t.bodyMarkdown,
      seoTitle: null,
      seoDescription: null,
    })),
  };
  if (mapped && existing) {
    const version = Number(mapped.targetVersion);
    const publishedAt = post.publishedAt ?? existing.publishedAt ?? (status === "published" ? now : null);
    const result = await trx
      .updateTable("posts")
      .set((eb) => ({
        publishedAt,
        categoryId,
        ...(post.author && authorId ? { authorId } : {}),
        coverImageUrl: p.coverUrl,
        coverAlt: input.coverAlt,
        updatedAt: now,
        version: eb("version", "+", 1),
      }))
      .where("id", "=", existing.id)
      .where("version", "=", version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return { outcome: "skipped", reason: "editedSinceImport" };
    // The chunk writes the search rows itself, with the posts.
    await life.setStatus(existing.id, status, { event: "import", indexed: true, details: { source: job.kind } });
    const locales = p.translations.map((t) => t.locale);
    await trx
      .deleteFrom("postTranslations")
      .where("postId", "=", existing.id)
      .where("locale", "not in", locales)
      .execute();
    for (const t of p.translations) {
      const values = { ...t, seoTitle: null, seoDescription: null, updatedAt: now };
      const { locale: _l, ...rest } = values;
      await trx
        .insertInto("postTranslations")
        .values({ postId: existing.id, ...values, createdAt: now })
        .onConflict((oc) => oc.columns(["postId", "locale"]).doUpdateSet(rest))
        .execute();
    }
    await markTranslationsInLine(trx, existing.id);
    await trx.deleteFrom("postTags").where("postId", "=", existing.id).execute();
    if (tagIds.length > 0)
      await trx
        .insertInto("postTags")
        .values(tagIds.map((tagId) => ({ postId: existing.id, tagId })))
        .execute();
    await writeRevisions(trx, job, p, existing.id, input, existing.slug, publishedAt, now);
    if (authorId)
      await recordRevision(trx, {
        postId: existing.id,
        authorId,
        kind: "saved",
        content: contentOfInput({ ...input, slug: existing.slug }, existing.slug, publishedAt),
        now,
        coalesce: false,
      });
    const comments = await writeComments(trx, job, p, existing.id, false, now);
    await trx
      .updateTable("importSources")
      .set({ hash: p.hash, targetVersion: version + 1, updatedAt: now })
      .where("source", "=", job.kind)
      .where("entity", "=", "post")
      .where("sourceId", "=", post.sourceId)
      .execute();
    return { outcome: "updated", postId: existing.id, comments };
  }
  const slug = await freeSlug(trx, post);
  const publishedAt = post.publishedAt ?? (status === "published" ? now : null);
  const id = await life.create(
    {
      slug,
      authorId,
      status,
      publishedAt,
      categoryId,
      tagIds,
      coverImageUrl: p.coverUrl,
      coverAlt: input.coverAlt,
      newsletter: false,
      // Imported posts were published elsewhere before: never sent to Fediverse followers.
      federate: false,
      translations: p.translations,
    },
    { event: "import", indexed: true, details: { source: job.kind } },
  );
  await writeRevisions(trx, job, p, id, input, slug, publishedAt, now);
  if (authorId)
    await recordRevision(trx, {
      postId: id,
      authorId,
      kind: "saved",
      content: contentOfInput({ ...input, slug }, slug, publishedAt),
      now,
      // A new post: its only revisions are the imported ones just written, if any.
      fresh: (p.post.revisions ?? []).length === 0,
    });
  const comments = await writeComments(trx, job, p, id, true, now);
  await rememberTarget(trx, {
    source: job.kind,
    entity: "post",
    sourceId: post.sourceId,
    targetId: id,
    hash: p.hash,
    targetVersion: 1,
    now,
  });
  return { outcome: "imported", postId: id, comments };
}

/**
 * Writes a post's imported revisions not written yet (entity `revision`) as saved revisions dated
 * when they were made: the post as imported with that language's title, summary and body as
 * they were then.
 */
async function writeRevisions(
  trx: Transaction<Database>,
  job: ImportJob,
  p: Prepared,
  postId: string,
  input: EditorInput,
  slug: string,
  publishedAt: string | null,
  now: string,
): Promise<void> {
  if (!job.authorId) return;
  for (const r of p.post.revisions ?? []) {
    if (await mappedTarget(trx, job.kind, "revision", r.sourceId)) continue;
    const translations = input.translations.some((t) => t.locale === r.locale)
      ? input.translations.map((t) =>
          t.locale === r.locale ? { ...t, title: r.title, summary: r.summary, bodyMarkdown: r.bodyMarkdown } : t,
        )
      : input.translations;
    const revisionId = await recordRevision(trx, {
      postId,
      authorId: job.authorId,
      kind: "saved",
      content: contentOfInput({ ...input, slug, translations }, slug, publishedAt),
      now: r.createdAt,
      coalesce: false,
    });
    await rememberTarget(trx, {
      source: job.kind,
      entity: "revision",
      sourceId: r.sourceId,
      targetId: revisionId,
      targetVersion: 1,
      now,
    });
  }
}

/** The category of this name (in either language) or slug, made when there is none. */
export async function ensureCategory(trx: Transaction<Database>, name: string): Promise<string> {
  const id = await ensureTerm(trx, "categories", name);
  if (id === null) throw new Error(`the category "${name}" could not be made`);
  return id;
}

/** A free slug for a new post: the source's (or one from its file or title), `-2`… when taken. */
async function freeSlug(trx: Transaction<Database>, post: ImportedPost): Promise<string> {
  const fromSource = post.slug ? slugify(post.slug) : "";
  const en = post.translations.find((t) => t.locale === "en")?.title ?? "";
  const fromName = slugify(
    post.sourceId
      .split("/")
      .pop()
      ?.replace(/^file:/, "") ?? "",
  );
  const base =
    [fromSource, slugify(en), fromName]
      .map((s) => s.slice(0, POST_LIMITS.slugMax - 8).replace(/-+$/, ""))
      .find((s) => s && SLUG_PATTERN.test(s)) ?? `post-${newId().slice(0, 8)}`;
  for (const slug of [base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)]) {
    const owner = await trx.selectFrom("posts").select("id").where("slug", "=", slug).executeTakeFirst();
    if (!owner) return slug;
  }
  return `${base}-${newId().slice(0, 6)}`;
}
