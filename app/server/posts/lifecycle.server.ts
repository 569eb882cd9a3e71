import { sql, type Transaction } from "kysely";
import { pickTitle } from "../../lib/admin-content.ts";
import { type AuditActor, audit } from "../admin/audit.server.ts";
import type { ContentChanges } from "../cache/content-changes.server.ts";
import type { ChangeTags } from "../cache/content-version.server.ts";
import { editorChanges } from "../cache/page-tags.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Database, Locale, PostStatus } from "../db/schema.server.ts";
import { startNewsletters } from "../newsletter/sends.server.ts";
import { newId } from "../platform/ids.server.ts";
import { reindexPosts } from "../search/index.server.ts";
import { forgetPostCounts } from "./post-counts.server.ts";

// A post's life, in one place (docs/decisions/026-post-lifecycle.md).
//
// This module owns `posts.status`: it is the only code that writes the column (a source scan,
// lifecycle-owner.test.ts, fails the build otherwise). Every change readers or subscribers can
// notice (a post created, saved, published, unpublished, scheduled, brought live by the
// scheduler, imported, featured, trashed, restored, purged, a revision restored) runs inside
// `withPostLifecycle`, one transaction, and the lifecycle decides its effects, whoever called:
//
// - in the transaction: the status itself, the newsletter send of a post that goes live with
//   its box ticked (it commits with the publication or not at all), and the audit entry;
// - after the commit: the search index, the cached post counts, the cached pages of every
//   instance (ContentChanges), and a nudge to the Fediverse sync, which queues the Create,
//   Update or Delete (it compares what is live with what was sent, so nothing is lost when a
//   nudge is: its next run catches up).
//
// The caller names the acting user (or a system actor) for the audit entry; the lifecycle never
// looks at who wrote the post, so who may change which post stays the caller's rule.

/** Who made a change, for the audit entry: a signed-in user, or a job (`id` null). */
export type LifecycleActor = AuditActor;

/** The scheduled publisher. */
export const SCHEDULER: LifecycleActor = { id: null, email: "system:scheduler" };
/** An import whose account is gone. */
export const IMPORTER: LifecycleActor = { id: null, email: "system:import" };
/** Posts written without a person or job behind them (the demo seed, fixtures): no audit entry. */
export const SYSTEM: LifecycleActor = { id: null, email: "system" };

/** The user `userId` as an audit entry names them (a deleted account: its id alone). */
export async function userActor(db: DB, userId: string): Promise<LifecycleActor> {
  const row = await db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst();
  return { id: row ? userId : null, email: row?.email ?? `user:${userId}` };
}

/** What happened to a post, as the caller sees it; a status change names itself instead. */
export type PostEvent =
  | "create"
  | "update"
  | "import"
  | "restoreRevision"
  | "feature"
  | "unfeature"
  | "trash"
  | "restore"
  | "purge";

/** The services the after-commit effects reach: the server wires them at boot. */
export interface LifecycleServices {
  content: Pick<ContentChanges, "changed">;
  federation: { poke(): void };
}

const wired = new WeakMap<DB, LifecycleServices>();

/**
 * Connects the lifecycle of posts in `db` to this process's page caches and Fediverse sync.
 * Without it (tests of a bare database, the command line) the database effects still happen.
 */
export function wirePostLifecycle(db: DB, services: LifecycleServices): void {
  wired.set(db, services);
}

export interface RecordOptions {
  /** Extra audit details (a schedule's time, the revision restored). */
  details?: Record<string, unknown>;
  /**
   * Whether readers could see the post before and after, and whether it moved in the lists:
   * narrows the pages dropped (page-tags.server.ts). Without it every page goes.
   */
  visible?: { before: boolean; after: boolean };
  moved?: boolean;
  /** The caller wrote the post's search rows in the transaction already (an import chunk). */
  indexed?: boolean;
}

export interface StatusOptions extends RecordOptions {
  /** What to record when the status stays the same (a save). Default "update". */
  event?: PostEvent;
  /**
   * The publish time to store with the status: a time, null, or "now-or-earlier" (publishing
   * now: a missing or future time becomes now, an earlier one stays). Absent: unchanged.
   */
  publishedAt?: string | null | "now-or-earlier";
  /** Bump `version` and `updatedAt` (a change made outside the editor's own UPDATE). */
  bump?: boolean;
}

/** The handle a change gets inside its transaction. */
export interface PostLife {
  readonly trx: Transaction<Database>;
  readonly now: string;
  /** Creates a post with its first status (and its translations and tags); returns its id. */
  create(input: NewPostInput, options?: RecordOptions & { event?: PostEvent }): Promise<string>;
  /**
   * Sets the status of a post that is not in the trash. False when no such post. A post that
   * goes live starts its newsletter here (once per post, ever).
   */
  setStatus(postId: string, to: PostStatus, options?: StatusOptions): Promise<boolean>;
  /** Publishes every scheduled post whose time has come; returns their ids. */
  publishDue(): Promise<string[]>;
  /** A change that left the status alone (a trash, a feature); call it after the write, or before a purge. */
  record(postId: string, event: PostEvent, options?: RecordOptions): Promise<void>;
}

interface Recorded {
  postId: string;
  tags: ChangeTags;
  indexed: boolean;
}

/** The audit action of a change: a status change is named by where the post went. */
function actionOf(from: PostStatus | null, to: PostStatus, event: PostEvent): string {
  if (from === to || (from === null && to === "draft")) return `post.${event}`;
  if (to === "published") return "post.publish";
  if (to === "scheduled") return "post.schedule";
  return "post.unpublish";
}

async function aboutPost(trx: DB, postId: string): Promise<{ title: string; slug: string } | null> {
  const row = await trx
    .selectFrom("posts as p")
    .leftJoin("postTranslations as en", (j) => j.onRef("en.postId", "=", "p.id").on("en.locale", "=", "en"))
    .leftJoin("postTranslations as zh", (j) => j.onRef("zh.postId", "=", "p.id").on("zh.locale", "=", "zh"))
    .select(["p.slug", "en.title as titleEn", "zh.title as titleZh"])
    .where("p.id", "=", postId)
    .executeTakeFirst();
  return row ? { slug: row.slug, title: pickTitle(row.titleEn, row.titleZh, "en") } : null;
}

function tagsOf(postId: string, options: RecordOptions): ChangeTags {
  return options.visible ? editorChanges(postId, options.visible, options.moved ?? true) : "all";
}

function mergeTags(all: readonly Recorded[]): ChangeTags {
  const tags = new Set<string>();
  for (const r of all) {
    if (r.tags === "all") return "all";
    for (const t of r.tags) tags.add(t);
  }
  return [...tags];
}

/** A new post as `create` takes it (createPost, the editor, imports, the seed). */
export interface NewPostInput {
  slug: string;
  authorId: string | null;
  status: PostStatus;
  publishedAt: string | null;
  categoryId?: string | null;
  tagIds?: readonly string[];
  coverImageUrl?: string | null;
  coverAlt?: string;
  featured?: boolean;
  /** Mail it to subscribers when it first goes live (the editor's box). */
  newsletter?: boolean;
  /** Shared on the Fediverse (default: yes; imports: no). */
  federate?: boolean;
  /** The series it belongs to and its part number there. */
  seriesId?: string | null;
  seriesPosition?: number | null;
  /** A caller-chosen id (the editor's idempotency key); generated when absent. */
  id?: string;
  translations: Array<{
    locale: Locale;
    title: string;
    summary?: string;
    bodyMarkdown?: string;
    bodyHtml?: string;
    tocJson?: string;
    readingMinutes?: number;
    seoTitle?: string | null;
    seoDescription?: string | null;
  }>;
}

/**
 * The rows of a new post (post, translations, tags) and nothing else; its status is the one
 * given. `create` calls it inside the lifecycle's transaction; tests/setup/raw-post.ts calls it
 * bare, to write a post as another process would, without the lifecycle's effects.
 */
export async function insertPostRow(trx: DB, input: NewPostInput, now: string): Promise<string> {
  if (input.translations.length === 0) throw new Error("a post needs at least one translation");
  const id = input.id ?? newId();
  await trx
    .insertInto("posts")
    .values({
      id,
      slug: input.slug,
      authorId: input.authorId,
      status: input.status,
      publishedAt: input.publishedAt,
      categoryId: input.categoryId ?? null,
      coverImageId: null,
      coverImageUrl: input.coverImageUrl ?? null,
      coverAlt: input.coverAlt ?? "",
      featured: input.featured ? 1 : 0,
      newsletter: input.newsletter ? 1 : 0,
      federate: input.federate === false ? 0 : 1,
      seriesId: input.seriesId ?? null,
      seriesPosition: input.seriesId ? (input.seriesPosition ?? null) : null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  await trx
    .insertInto("postTranslations")
    .values(
      input.translations.map((t) => ({
        postId: id,
        locale: t.locale,
        title: t.title,
        summary: t.summary ?? "",
        bodyMarkdown: t.bodyMarkdown ?? "",
        bodyHtml: t.bodyHtml ?? "",
        tocJson: t.tocJson ?? "[]",
        readingMinutes: t.readingMinutes ?? 1,
        seoTitle: t.seoTitle ?? null,
        seoDescription: t.seoDescription ?? null,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .execute();
  if (input.tagIds && input.tagIds.length > 0) {
    await trx
      .insertInto("postTags")
      .values([...new Set(input.tagIds)].map((tagId) => ({ postId: id, tagId })))
      .execute();
  }
  return id;
}

/**
 * Runs `work` in one transaction with a handle that writes post statuses and records every
 * change; once it commits, the recorded posts are reindexed and every instance drops their
 * pages. A callback that records nothing (a refused or conflicting save) has no effects.
 */
export async function withPostLifecycle<T>(
  db: DB,
  actor: LifecycleActor,
  work: (life: PostLife) => Promise<T>,
  opts: { now?: Date } = {},
): Promise<T> {
  const recorded: Recorded[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const now = nowIso(opts.now);
    recorded.length = 0;
    const note = async (
      postId: string,
      action: string,
      options: RecordOptions,
      known?: { title: string; slug: string } | null,
    ) => {
      // The audit log answers who changed the site: people and jobs, not seeds and fixtures.
      if (actor.email !== SYSTEM.email) {
        const about = known ?? (await aboutPost(trx, postId));
        await audit(trx, actor, action, { type: "post", id: postId }, { ...about, ...options.details });
      }
      recorded.push({ postId, tags: tagsOf(postId, options), indexed: options.indexed === true });
    };
    const goneLive = async (ids: string[]) => {
      if (ids.length > 0) await startNewsletters(trx, ids, actor.id, new Date(now));
    };
    const life: PostLife = {
      trx,
      now,
      async create(input, options = {}) {
        const id = await insertPostRow(trx, input, now);
        if (input.status === "published") await goneLive([id]);
        await note(id, actionOf(null, input.status, options.event ?? "create"), {
          ...options,
          visible: options.visible ?? { before: false, after: input.status === "published" },
        });
        return id;
      },
      async setStatus(postId, to, options = {}) {
        const before = await trx
          .selectFrom("posts")
          .select("status")
          .where("id", "=", postId)
          .where("deletedAt", "is", null)
          .executeTakeFirst();
        if (!before) return false;
        const at = options.publishedAt;
        const result = await trx
          .updateTable("posts")
          .set((eb) => ({
            status: to,
            ...(at === undefined
              ? {}
              : {
                  publishedAt:
                    at === "now-or-earlier"
                      ? sql<string>`case when "publishedAt" is null or "publishedAt" > ${now} then ${now} else "publishedAt" end`
                      : at,
                }),
            ...(options.bump ? { updatedAt: now, version: eb("version", "+", 1) } : {}),
          }))
          .where("id", "=", postId)
          .where("deletedAt", "is", null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
        if (before.status !== "published" && to === "published") await goneLive([postId]);
        await note(postId, actionOf(before.status, to, options.event ?? "update"), {
          ...options,
          visible: options.visible ?? { before: before.status === "published", after: to === "published" },
        });
        return true;
      },
      async publishDue() {
        // One UPDATE: several instances running it at once change each row once. The version
        // bump makes an editor still open on the post see a conflict instead of saving over it.
        const rows = await trx
          .updateTable("posts")
          .set((eb) => ({ status: "published", updatedAt: now, version: eb("version", "+", 1) }))
          .where("status", "=", "scheduled")
          .where("publishedAt", "<=", now)
          .where("deletedAt", "is", null)
          .returning("id")
          .execute();
        const ids = rows.map((r) => r.id);
        await goneLive(ids);
        for (const id of ids) await note(id, "post.publish", { visible: { before: false, after: true } });
        return ids;
      },
      async record(postId, event, options = {}) {
        await note(postId, `post.${event}`, options);
      },
    };
    return work(life);
  });
  if (recorded.length > 0) await settle(db, recorded);
  return result;
}

/** The after-commit half: what is not the database's to keep in step, or too slow to hold its lock for. */
async function settle(db: DB, recorded: readonly Recorded[]): Promise<void> {
  // Segmenting bodies takes a while: done after the commit, in its own short transaction.
  const toIndex = [...new Set(recorded.filter((r) => !r.indexed).map((r) => r.postId))];
  if (toIndex.length > 0) await reindexPosts(db, toIndex);
  forgetPostCounts(db);
  const services = wired.get(db);
  if (!services) return;
  await services.content.changed(mergeTags(recorded));
  // content.changed nudges the sync through every instance's version watcher too; this one is
  // for this instance, without waiting for the watcher.
  services.federation.poke();
}
