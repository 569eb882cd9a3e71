// The importers' memory of what they made from what (table "importSources", decision 020):
// one row per (importer, kind of thing, source id) pointing at the row it became here. A
// re-run reads it to update or skip instead of duplicating.
import type { DB } from "../db/db.server.ts";
import { getMedia } from "../media/media.server.ts";
import type { ImportedPost } from "./core.server.ts";
import { inSlices } from "./slices.server.ts";

/** What a mapping row maps: a post, a page, a comment, a revision, an author, an image by content or by address. */
export type ImportEntity = "post" | "page" | "comment" | "revision" | "author" | "media" | "media-url";

/** The entity an imported item is mapped as: a page or a post. */
export const itemEntity = (post: Pick<ImportedPost, "kind">): "post" | "page" =>
  post.kind === "page" ? "page" : "post";

/** The id the source's `sourceId` of this kind became on an earlier run, or null. */
export async function mappedTarget(
  db: DB,
  source: string,
  entity: ImportEntity,
  sourceId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("importSources")
    .select("targetId")
    .where("source", "=", source)
    .where("entity", "=", entity)
    .where("sourceId", "=", sourceId)
    .executeTakeFirst();
  return row?.targetId ?? null;
}

/**
 * Writes (or moves) a mapping. `hash` is the source content's hash where re-runs compare it,
 * `targetVersion` the post's version just written; both default to "not compared".
 */
export async function rememberTarget(
  db: DB,
  m: {
    source: string;
    entity: ImportEntity;
    sourceId: string;
    targetId: string;
    hash?: string;
    targetVersion?: number;
    now: string;
  },
): Promise<void> {
  const values = { targetId: m.targetId, hash: m.hash ?? "", targetVersion: m.targetVersion ?? 0, updatedAt: m.now };
  await db
    .insertInto("importSources")
    .values({ source: m.source, entity: m.entity, sourceId: m.sourceId, ...values, createdAt: m.now })
    .onConflict((oc) => oc.columns(["source", "entity", "sourceId"]).doUpdateSet(values))
    .execute();
}

/** The address of an image an earlier run stored for this content or address, if it is still in the library. */
export async function storedImageUrl(
  db: DB,
  source: string,
  entity: "media" | "media-url",
  sourceId: string,
): Promise<string | null> {
  const mediaId = await mappedTarget(db, source, entity, sourceId);
  const media = mediaId ? await getMedia(db, mediaId) : undefined;
  return media?.url ?? null;
}

/** A post's (or page's) mapping: what it became, the source's hash and the row's version when last written. */
export async function mappingOf(db: DB, source: string, sourceId: string, entity: "post" | "page" = "post") {
  return db
    .selectFrom("importSources")
    .select(["targetId", "hash", "targetVersion"])
    .where("source", "=", source)
    .where("entity", "=", entity)
    .where("sourceId", "=", sourceId)
    .executeTakeFirst();
}

/**
 * What a re-run would do with each item before any work: skip it when the source and the post (or
 * page) are as last written (a few queries per hundred items).
 */
export async function earlySkips(
  db: DB,
  source: string,
  items: ReadonlyArray<{ post: Pick<ImportedPost, "sourceId" | "kind">; hash: string }>,
): Promise<Array<string | null>> {
  const known = new Map<string, { version: number; deletedAt: string | null }>();
  const mapped = new Map<string, { targetId: string; hash: string; targetVersion: number }>();
  for (const entity of ["post", "page"] as const) {
    const ids = [...new Set(items.filter((i) => itemEntity(i.post) === entity).map((i) => i.post.sourceId))];
    if (ids.length === 0) continue;
    await inSlices(ids, async (slice) => {
      const rows = await db
        .selectFrom("importSources")
        .select(["sourceId", "targetId", "hash", "targetVersion"])
        .where("source", "=", source)
        .where("entity", "=", entity)
        .where("sourceId", "in", slice)
        .execute();
      for (const r of rows) mapped.set(`${entity}:${r.sourceId}`, r);
    });
    const targets = [...new Set(ids.flatMap((id) => mapped.get(`${entity}:${id}`)?.targetId ?? []))];
    await inSlices(targets, async (slice) => {
      const rows =
        entity === "post"
          ? await db.selectFrom("posts").select(["id", "version", "deletedAt"]).where("id", "in", slice).execute()
          : (await db.selectFrom("pages").select(["id", "version"]).where("id", "in", slice).execute()).map((r) => ({
              ...r,
              deletedAt: null,
            }));
      for (const r of rows) known.set(`${entity}:${r.id}`, r);
    });
  }
  return items.map(({ post, hash }) => {
    const entity = itemEntity(post);
    const m = mapped.get(`${entity}:${post.sourceId}`);
    const existing = m ? known.get(`${entity}:${m.targetId}`) : undefined;
    if (!m || !existing) return null;
    if (existing.deletedAt) return "inTrash";
    if (m.hash === hash) return "unchanged";
    if (Number(existing.version) !== Number(m.targetVersion)) return "editedSinceImport";
    return null;
  });
}
