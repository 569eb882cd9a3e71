import { createHash } from "node:crypto";
import { buffer } from "node:stream/consumers";
import type { Logger } from "pino";
import type { Locale } from "../../lib/i18n/locale.ts";
import { mediaIdFromUrl } from "../../lib/media.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type LeasedJob, startLeasedJob } from "../jobs/lease.server.ts";
import { MEDIA_CACHE_CONTROL } from "../media/media.server.ts";
import { newId } from "../platform/ids.server.ts";
import { wherePublic } from "../posts/post-visibility.server.ts";
import { getSiteSettings, type SiteSettings } from "../site/site-settings.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";
import { CARD_FILE } from "./cards.server.ts";
import { CARD_DESIGN_VERSION, type CardContent, type RenderedCard, renderCard } from "./render.server.ts";

// The card job: every live post gets one social card per language, drawn once per change of
// what is on it (title, cover, site name, brand) and never while a reader waits. Like the
// Fediverse sync, it compares what should be with what is (the `inputHash` of each card), so
// a lost wake-up costs nothing: the next run catches up. Cards of posts that went away (a
// draft again, the trash, a purge, a language removed) are deleted with their files.

/** What a card shows besides its post: the site's name and brand. */
export interface CardBrand {
  siteName: Record<Locale, string>;
  /** `#rrggbb`. */
  accent: string;
  /** A site-relative upload address ("/media/…"), or "" for none. */
  logoUrl: string;
}

/** The accent of a site that has not chosen one: the links' blue (Tailwind's blue-700). */
export const DEFAULT_ACCENT = "#1d4ed8";

/** The brand a card is drawn with, from the site's settings (admin/brand). */
export function cardBrand(settings: SiteSettings): CardBrand {
  return { siteName: settings.siteName, accent: settings.brand.accent || DEFAULT_ACCENT, logoUrl: settings.brand.logo };
}

interface LiveVersion {
  postId: string;
  locale: Locale;
  title: string;
  coverImageUrl: string | null;
}

/** Sums up what a card of `version` is drawn from: equal hashes, equal cards. */
export function cardInputHash(version: LiveVersion, brand: CardBrand): string {
  const inputs = [
    CARD_DESIGN_VERSION,
    version.locale,
    version.title,
    // Only our own uploads are drawn (no fetching of other sites from here).
    mediaIdFromUrl(version.coverImageUrl) ? version.coverImageUrl : "",
    brand.siteName[version.locale],
    brand.accent,
    brand.logoUrl,
  ];
  return createHash("sha256").update(JSON.stringify(inputs)).digest("hex").slice(0, 32);
}

/** The bytes of an upload's main file, or null when it is not one of ours or is gone. */
async function uploadBytes(db: DB, storage: StorageDriver, url: string | null): Promise<Buffer | null> {
  const id = mediaIdFromUrl(url);
  if (!id) return null;
  const row = await db.selectFrom("media").select("name").where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  try {
    return await buffer((await storage.get(row.name)).body);
  } catch {
    return null;
  }
}

export interface SyncDeps {
  db: DB;
  storage: StorageDriver;
  log?: Logger;
  /** The drawing, replaceable in tests that count renders. */
  render?: (content: CardContent) => Promise<RenderedCard>;
}

export interface SyncResult {
  /** Posts whose card was drawn or removed. */
  changed: string[];
  made: number;
  removed: number;
  /** Cards still to draw after this run (more than `limit` were due). */
  remaining: number;
}

/** How many cards one run draws at most (about a third of a second each). */
export const CARDS_PER_RUN = 20;

/** Draws the cards that are missing or out of date (at most `limit`) and removes those of posts gone. */
export async function syncSocialCards(deps: SyncDeps, limit = CARDS_PER_RUN): Promise<SyncResult> {
  const { db, storage, log } = deps;
  const render = deps.render ?? renderCard;
  const brand = cardBrand(await getSiteSettings(db));
  const live: LiveVersion[] = await db
    .selectFrom("posts as p")
    .innerJoin("postTranslations as t", "t.postId", "p.id")
    .select(["p.id as postId", "t.locale", "t.title", "p.coverImageUrl"])
    .where(wherePublic("p"))
    .orderBy("p.publishedAt", "desc")
    .orderBy("p.id")
    .orderBy("t.locale")
    .execute();
  const cards = await db.selectFrom("socialCards").select(["id", "postId", "locale", "inputHash"]).execute();
  const existing = new Map(cards.map((c) => [`${c.postId}:${c.locale}`, c]));

  const due = live
    .map((version) => ({ version, hash: cardInputHash(version, brand) }))
    .filter(({ version, hash }) => existing.get(`${version.postId}:${version.locale}`)?.inputHash !== hash);
  const changed = new Set<string>();
  let made = 0;
  const logo = due.length > 0 ? await uploadBytes(db, storage, brand.logoUrl || null) : null;
  for (const { version, hash } of due.slice(0, limit)) {
    try {
      const rendered = await render({
        title: version.title,
        locale: version.locale,
        siteName: brand.siteName[version.locale],
        accent: brand.accent,
        cover: await uploadBytes(db, storage, version.coverImageUrl),
        logo,
      });
      const id = newId();
      await storage.put(`${id}/${CARD_FILE}`, rendered.data, {
        contentType: rendered.contentType,
        cacheControl: MEDIA_CACHE_CONTROL,
        customMetadata: { socialCard: `${version.postId}:${version.locale}` },
      });
      const now = nowIso();
      const old = await db.transaction().execute(async (trx) => {
        const previous = await trx
          .deleteFrom("socialCards")
          .where("postId", "=", version.postId)
          .where("locale", "=", version.locale)
          .returning("id")
          .executeTakeFirst();
        await trx
          .insertInto("socialCards")
          .values({
            id,
            postId: version.postId,
            locale: version.locale,
            inputHash: hash,
            contentType: rendered.contentType,
            width: rendered.width,
            height: rendered.height,
            size: rendered.data.length,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        return previous?.id ?? null;
      });
      if (old) await removeFile(storage, old, log);
      changed.add(version.postId);
      made += 1;
    } catch (error) {
      // The next run tries again; the page keeps its previous card (or the site image).
      log?.warn({ err: error, postId: version.postId, locale: version.locale }, "could not draw a social card");
    }
  }

  const wanted = new Set(live.map((v) => `${v.postId}:${v.locale}`));
  const gone = cards.filter((c) => !wanted.has(`${c.postId}:${c.locale}`));
  for (const card of gone) {
    await db.deleteFrom("socialCards").where("id", "=", card.id).execute();
    await removeFile(storage, card.id, log);
    changed.add(card.postId);
  }
  return { changed: [...changed], made, removed: gone.length, remaining: Math.max(0, due.length - limit) };
}

async function removeFile(storage: StorageDriver, id: string, log?: Logger): Promise<void> {
  try {
    await storage.delete(`${id}/${CARD_FILE}`);
  } catch (error) {
    // `media gc` removes a file no card and no upload owns.
    log?.warn({ err: error, id }, "could not remove an old social card");
  }
}

export const CARDS_LEASE = "social-cards";
/** The catch-up beat; content changes wake the job at once. */
export const CARDS_INTERVAL_MS = 5 * 60_000;

/**
 * The first catch-up run waits this long after a start, so a booting server loads nothing of
 * sharp or the fonts (decision 024's light boot); a content change wakes the job at once.
 */
export const CARDS_FIRST_RUN_AFTER_MS = 60_000;

/**
 * Runs the card sync on the holder of its lease, now, every `intervalMs` and whenever it is
 * poked (every content change: an edit, a publication, new brand settings). A run that left
 * cards to draw pokes itself for the next batch.
 */
export function startSocialCards(
  deps: SyncDeps & { log: Logger },
  opts: { intervalMs?: number; holder?: string; onChanged?: (postIds: string[]) => void } = {},
): LeasedJob {
  const { intervalMs = CARDS_INTERVAL_MS, holder, onChanged } = opts;
  const job: LeasedJob = startLeasedJob(deps.db, deps.log, {
    name: CARDS_LEASE,
    intervalMs,
    firstRunAfterMs: CARDS_FIRST_RUN_AFTER_MS,
    ...(holder ? { holder } : {}),
    run: async () => {
      const result = await syncSocialCards(deps);
      if (result.changed.length > 0) onChanged?.(result.changed);
      if (result.made > 0 || result.removed > 0) {
        deps.log.info({ made: result.made, removed: result.removed }, "social cards updated");
      }
      if (result.remaining > 0) job.poke();
    },
  });
  return job;
}
