import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { containsText, countRows } from "../db/query.server.ts";
import type { Locale } from "../db/schema.server.ts";
import { newId } from "../platform/ids.server.ts";
import { moveToPosition } from "./ordering.server.ts";
import { splitByWindow } from "./time-windows.server.ts";

export interface Slide {
  id: string;
  title: string;
  imageUrl: string;
  imageAlt: string;
  linkUrl: string | null;
}

/** At most this many slides are shown; more would only slow the home page. */
export const MAX_SLIDES = 10;

/**
 * The slides to show now (enabled, inside their time window, in order, with the title in
 * the reader's language, the other language when that one is empty), and when that
 * changes by itself: the earliest start or end of an enabled slide's time window after
 * `now` (null when none is ahead).
 */
export async function slidesInWindow(
  db: DB,
  locale: Locale,
  now = nowIso(),
): Promise<{ slides: Slide[]; nextChange: string | null }> {
  // Slides still to come are read too (there are few): their start is when the carousel changes.
  const rows = await db
    .selectFrom("swapers")
    .select(["id", "titleEn", "titleZh", "imageUrl", "imageAlt", "linkUrl", "startsAt", "endsAt"])
    .where("enabled", "=", 1)
    .where((eb) => eb.or([eb("endsAt", "is", null), eb("endsAt", ">", now)]))
    .orderBy("sortOrder")
    .orderBy("createdAt")
    .execute();
  const { active, nextChange } = splitByWindow(rows, now);
  return { slides: active.slice(0, MAX_SLIDES).map((r) => toSlide(r, locale)), nextChange };
}

function toSlide(
  r: { id: string; titleEn: string; titleZh: string; imageUrl: string; imageAlt: string; linkUrl: string | null },
  locale: Locale,
): Slide {
  return {
    id: r.id,
    title: locale === "en" ? r.titleEn || r.titleZh : r.titleZh || r.titleEn,
    imageUrl: r.imageUrl,
    imageAlt: r.imageAlt,
    linkUrl: r.linkUrl,
  };
}

export interface NewSlide {
  titleEn?: string;
  titleZh?: string;
  imageUrl: string;
  imageAlt?: string;
  linkUrl?: string | null;
  sortOrder?: number;
  enabled?: boolean;
  startsAt?: string | null;
  endsAt?: string | null;
}

export async function createSlide(db: DB, input: NewSlide): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("swapers")
    .values({
      id,
      titleEn: input.titleEn ?? "",
      titleZh: input.titleZh ?? "",
      imageUrl: input.imageUrl,
      imageAlt: input.imageAlt ?? "",
      linkUrl: input.linkUrl ?? null,
      sortOrder: input.sortOrder ?? 0,
      enabled: input.enabled === false ? 0 : 1,
      startsAt: input.startsAt ?? null,
      endsAt: input.endsAt ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return id;
}

export interface SlideRow {
  id: string;
  titleEn: string;
  titleZh: string;
  imageUrl: string;
  imageAlt: string;
  linkUrl: string | null;
  sortOrder: number;
  enabled: boolean;
  startsAt: string | null;
  endsAt: string | null;
  updatedAt: string;
}

const SLIDE_COLUMNS = [
  "id",
  "titleEn",
  "titleZh",
  "imageUrl",
  "imageAlt",
  "linkUrl",
  "sortOrder",
  "enabled",
  "startsAt",
  "endsAt",
  "updatedAt",
] as const;

function toSlideRow(r: Omit<SlideRow, "enabled"> & { enabled: number }): SlideRow {
  return { ...r, enabled: r.enabled === 1 };
}

/** Every slide for the admin list, in display order; `q` matches either title. */
export async function listSlidesForAdmin(
  db: DB,
  opts: { q?: string; page: number; pageSize: number },
): Promise<AdminPage<SlideRow>> {
  const q = opts.q?.trim() ?? "";
  const base = db.selectFrom("swapers").$if(q !== "", (qb) => qb.where(containsText(["titleEn", "titleZh"], q)));
  return adminPage(await countRows(base), opts, async (limit, offset) =>
    (
      await base
        .select(SLIDE_COLUMNS)
        .orderBy("sortOrder")
        .orderBy("createdAt")
        .orderBy("id")
        .limit(limit)
        .offset(offset)
        .execute()
    ).map(toSlideRow),
  );
}

export async function getSlide(db: DB, id: string): Promise<SlideRow | undefined> {
  const row = await db.selectFrom("swapers").select(SLIDE_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toSlideRow(row) : undefined;
}

/** Updates a slide; false when it no longer exists. */
export async function updateSlide(db: DB, id: string, input: Required<NewSlide>): Promise<boolean> {
  const result = await db
    .updateTable("swapers")
    .set({
      titleEn: input.titleEn,
      titleZh: input.titleZh,
      imageUrl: input.imageUrl,
      imageAlt: input.imageAlt,
      linkUrl: input.linkUrl,
      sortOrder: input.sortOrder,
      enabled: input.enabled ? 1 : 0,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      updatedAt: nowIso(),
    })
    .where("id", "=", id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteSlide(db: DB, id: string): Promise<boolean> {
  const result = await db.deleteFrom("swapers").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Puts slide `id` at `position` (0-based) in the display order; inside a transaction. */
export function moveSlide(db: DB, id: string, position: number): Promise<boolean> {
  return moveToPosition(db, "swapers", id, position);
}
