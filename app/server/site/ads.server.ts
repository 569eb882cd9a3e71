import { sql } from "kysely";
import { AD_SORTS, type AdContents, type AdSort, adContent } from "../../lib/schemas/ad.ts";
import { isHttpUrl } from "../../lib/schemas/link.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import { reusableQuery } from "../db/reusable-query.server.ts";
import type { AdKind, AdPlacement, Locale } from "../db/schema.server.ts";
import { isBotAgent } from "../insights/bots.server.ts";
import { type BatchCounter, createBatchCounter } from "../platform/batch-counter.server.ts";
import { newId } from "../platform/ids.server.ts";
import { cachedCount, forgetPostCounts } from "../posts/post-counts.server.ts";
import { splitByWindow } from "./time-windows.server.ts";

/** What a public page needs to show an ad: never its target URL (clicks go through /ads/{id}/click). */
export interface PublicAd {
  id: string;
  kind: AdKind;
  title: string;
  text: string;
  imageUrl: string | null;
  imageAlt: string;
}

/** An ad that may show now, with both language versions (the page picks one). */
export interface Candidate extends AdContents {
  id: string;
  kind: AdKind;
  weight: number;
}

/** A new or edited ad: each language version may be left out, not both (the form sees to it). */
export interface NewAd extends Partial<AdContents> {
  placement: AdPlacement;
  kind: AdKind;
  linkUrl: string;
  enabled?: boolean;
  startsAt?: string | null;
  endsAt?: string | null;
  weight?: number;
}

export interface AdRow extends AdContents {
  id: string;
  placement: AdPlacement;
  kind: AdKind;
  linkUrl: string;
  enabled: boolean;
  startsAt: string | null;
  endsAt: string | null;
  weight: number;
  impressions: number;
  clicks: number;
  createdAt: string;
  updatedAt: string;
}

/** Both language versions under their app names (the English columns keep their old names). */
const CONTENT_COLUMNS = [
  "title as titleEn",
  "text as textEn",
  "imageUrl as imageUrlEn",
  "imageAlt as imageAltEn",
  "titleZh",
  "textZh",
  "imageUrlZh",
  "imageAltZh",
] as const;

const COLUMNS = [
  "id",
  "placement",
  "kind",
  ...CONTENT_COLUMNS,
  "linkUrl",
  "enabled",
  "startsAt",
  "endsAt",
  "weight",
  "impressions",
  "clicks",
  "createdAt",
  "updatedAt",
] as const;

function toRow(r: Omit<AdRow, "enabled" | "impressions" | "clicks" | "weight"> & Record<string, unknown>): AdRow {
  return {
    ...(r as unknown as AdRow),
    enabled: Number(r.enabled) === 1,
    weight: Number(r.weight),
    impressions: Number(r.impressions),
    clicks: Number(r.clicks),
  };
}

const clampWeight = (w: number | undefined) => Math.min(100, Math.max(1, Math.trunc(w ?? 1)));

/** The content columns as stored, from an app object. */
function contentValues(input: Partial<AdContents>) {
  return {
    title: input.titleEn ?? "",
    text: input.textEn ?? "",
    imageUrl: input.imageUrlEn || null,
    imageAlt: input.imageAltEn ?? "",
    titleZh: input.titleZh ?? "",
    textZh: input.textZh ?? "",
    imageUrlZh: input.imageUrlZh || null,
    imageAltZh: input.imageAltZh ?? "",
  };
}

export async function createAd(db: DB, input: NewAd): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("ads")
    .values({
      id,
      placement: input.placement,
      kind: input.kind,
      ...contentValues(input),
      linkUrl: input.linkUrl,
      enabled: input.enabled === false ? 0 : 1,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      weight: clampWeight(input.weight),
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  forgetPostCounts(db);
  return id;
}

/** Updates an ad (not its counters); false when it no longer exists. */
export async function updateAd(db: DB, id: string, input: Required<NewAd>): Promise<boolean> {
  const result = await db
    .updateTable("ads")
    .set({
      placement: input.placement,
      kind: input.kind,
      ...contentValues(input),
      linkUrl: input.linkUrl,
      enabled: input.enabled ? 1 : 0,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      weight: clampWeight(input.weight),
      updatedAt: nowIso(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  forgetPostCounts(db);
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteAd(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("ads").where("id", "=", id).executeTakeFirst();
  forgetPostCounts(db);
  return Number(result.numDeletedRows) > 0;
}

export async function getAd(db: DB, id: string): Promise<AdRow | undefined> {
  const row = await db.selectFrom("ads").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

export { AD_SORTS, type AdSort };

export function parseAdSort(value: string | null): AdSort {
  return (AD_SORTS as readonly string[]).includes(value ?? "") ? (value as AdSort) : "newest";
}

/**
 * Ads for the admin list: optional placement filter, search over both languages' titles
 * and texts, a sort (titles in `locale`, the other language's when that one is empty), pages.
 */
export async function listAdsForAdmin(
  db: DB,
  opts: {
    q?: string;
    placement?: AdPlacement | null;
    sort?: AdSort;
    locale?: Locale;
    page: number;
    pageSize: number;
  },
): Promise<AdminPage<AdRow>> {
  const q = opts.q?.trim() ?? "";
  const placement = opts.placement ?? null;
  const base = db
    .selectFrom("ads")
    .$if(placement !== null, (qb) => qb.where("placement", "=", placement as AdPlacement))
    .$if(q !== "", (qb) => qb.where(containsText(["title", "text", "titleZh", "textZh"], q)));
  const [own, other] = opts.locale === "zh" ? ["titleZh", "title"] : ["title", "titleZh"];
  const shownTitle = sql<string>`coalesce(nullif(${sql.ref(own)}, ''), ${sql.ref(other)})`;
  const order = {
    newest: [sql.ref("createdAt"), "desc"],
    title: [shownTitle, "asc"],
    impressions: [sql.ref("impressions"), "desc"],
    clicks: [sql.ref("clicks"), "desc"],
  } as const;
  const [column, direction] = order[opts.sort ?? "newest"] ?? order.newest;
  return adminPage(await countRows(base), opts, async (limit, offset) =>
    (await base.select(COLUMNS).orderBy(column, direction).orderBy("id").limit(limit).offset(offset).execute()).map(
      toRow,
    ),
  );
}

/** A placement's enabled ads not over yet (every page with an ad slot reads them: compiled once). */
export const adWindowRows = reusableQuery(["placement", "now"], (db, v: { placement: AdPlacement; now: string }) =>
  // Ads still to come are read too: their start is when the placement changes.
  db
    .selectFrom("ads")
    .select(["id", "kind", ...CONTENT_COLUMNS, "weight", "startsAt", "endsAt"])
    .where("placement", "=", v.placement)
    .where("enabled", "=", 1)
    .where((eb) => eb.or([eb("endsAt", "is", null), eb("endsAt", ">", v.now)]))
    .orderBy("createdAt")
    .orderBy("id"),
);

type WindowRow = Awaited<ReturnType<typeof adWindowRows.execute>>[number];

/**
 * A placement's rows from `adWindowRows`, read once per content version on this instance
 * and kept like the list totals (post-counts.server.ts): every page with an ad slot needs
 * them, and they change only when an ad is written (the admin's writes are content
 * changes; the functions above also drop them) or, on SQLite, when another connection
 * commits. Rows not over at the time they were read stay a superset of those not over
 * later, so `splitByWindow` still decides what shows at each request's `now`; a question
 * about an earlier moment than the kept read (tests) reads afresh.
 */
async function windowRows(db: DB, placement: AdPlacement, now: string): Promise<readonly WindowRow[]> {
  const kept = await cachedCount(db, `ads:${placement}`, async () => ({
    readAt: now,
    rows: await adWindowRows.execute(db, { placement, now }),
  }));
  return now >= kept.readAt ? kept.rows : adWindowRows.execute(db, { placement, now });
}

/**
 * The ads of a placement that may show now, and the earliest start or end of an
 * enabled ad's time window after `now` (null when none is ahead).
 */
export async function adsInWindow(
  db: DB,
  placement: AdPlacement,
  now = nowIso(),
): Promise<{ active: Candidate[]; nextChange: string | null }> {
  const rows = await windowRows(db, placement, now);
  const { active, nextChange } = splitByWindow(rows, now);
  return {
    active: active.map(({ startsAt: _s, endsAt: _e, ...r }) => ({ ...r, weight: clampWeight(Number(r.weight)) })),
    nextChange,
  };
}

/**
 * Picks one candidate with a chance proportional to its weight. `random` returns
 * a number in [0, 1) (Math.random; tests pass their own).
 */
export function pickWeighted<T extends { weight: number }>(candidates: readonly T[], random: () => number): T | null {
  const total = candidates.reduce((sum, c) => sum + c.weight, 0);
  if (candidates.length === 0 || total <= 0) return null;
  let point = Math.min(Math.max(random(), 0), 0.999_999_999) * total;
  for (const candidate of candidates) {
    if (point < candidate.weight) return candidate;
    point -= candidate.weight;
  }
  return candidates[candidates.length - 1] ?? null;
}

interface PickOptions {
  /** The reader's language: the ad is shown in it, or in the other one when it has no version in it. */
  locale: Locale;
  now?: string;
  random?: () => number;
}

/**
 * One active ad of `placement` (or null), and when the placement's choice changes by itself.
 * Every active ad is a candidate in both languages (a missing version falls back to the
 * other), so the pick by weight is the same whatever the reader's language.
 */
export async function pickAdInWindow(
  db: DB,
  placement: AdPlacement,
  options: PickOptions,
): Promise<{ ad: PublicAd | null; nextChange: string | null }> {
  const { active, nextChange } = await adsInWindow(db, placement, options.now);
  const picked = pickWeighted(active, options.random ?? Math.random);
  if (!picked) return { ad: null, nextChange };
  return { ad: { id: picked.id, kind: picked.kind, ...adContent(picked, options.locale) }, nextChange };
}

/**
 * The click-through: the stored target of an existing, enabled ad (and one click
 * counted, unless a bot follows it), or null. Never a URL from the request.
 */
export async function clickThrough(db: DB, id: string, userAgent: string | null): Promise<string | null> {
  const row = await db
    .selectFrom("ads")
    .select(["linkUrl"])
    .where("id", "=", id)
    .where("enabled", "=", 1)
    .executeTakeFirst();
  // Defence in depth: the form only stores http(s) URLs; anything else never redirects.
  if (!row || !isHttpUrl(row.linkUrl)) return null;
  if (!isBotAgent(userAgent)) {
    await db.updateTable("ads").set({ clicks: sql<number>`"clicks" + 1` }).where("id", "=", id).execute();
  }
  return row.linkUrl;
}

/** Adds each ad's impressions: one UPDATE per ad, in one transaction. */
export async function writeImpressionIncrements(db: DB, increments: ReadonlyMap<string, number>): Promise<void> {
  if (increments.size === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const [adId, n] of increments) {
      await trx
        .updateTable("ads")
        .set({ impressions: sql<number>`"impressions" + ${n}` })
        .where("id", "=", adId)
        .execute();
    }
  });
}

export interface AdImpressions {
  /** Counts one impression of `adId` unless the reader is a bot (or no browser said who it is). */
  record(adId: string, userAgent: string | null | undefined): boolean;
  pending(adId: string): number;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

/** Ad impressions, counted in memory and written in batches (like post views). */
export function createAdImpressions(
  db: DB | null,
  options: {
    write?: (increments: ReadonlyMap<string, number>) => Promise<void>;
    intervalMs?: number;
    onError?: (error: unknown) => void;
  } = {},
): AdImpressions {
  const write =
    options.write ??
    ((increments: ReadonlyMap<string, number>) => {
      if (!db) throw new Error("createAdImpressions needs a database or a write function");
      return writeImpressionIncrements(db, increments);
    });
  const counter: BatchCounter = createBatchCounter({
    write,
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    record(adId, userAgent) {
      if (isBotAgent(userAgent)) return false;
      counter.add(adId);
      return true;
    },
    pending: (adId) => counter.pending(adId),
    flush: () => counter.flush(),
    stop: () => counter.stop(),
  };
}
