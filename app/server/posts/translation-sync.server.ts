import type { Locale } from "../../lib/i18n/locale.ts";
import { type ParagraphDiff, paragraphDiff } from "../../lib/translation-diff.ts";
import { audit } from "../admin/audit.server.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { userActor } from "./lifecycle.server.ts";
import { type EditingUser, editableBy } from "./post-access.server.ts";

// Translations that know when they are out of date (issue 47, docs/decisions/034-translation-sync.md).
// Each language version of a post records whether it is in line with the other one:
// `outdatedSince` (null: up to date) and, while it is not, `syncedSource`, the other language
// as it was when this version was last brought in line with it. The rules live here only:
// the editor's save calls `readTranslationTexts` before it writes the translations and
// `settleTranslations` after; "Mark as up to date" is `markTranslationInLine`; an import
// that brings both languages calls `markTranslationsInLine`.

/** What counts as a language version's content for the marks: a change in any of these. */
export interface SyncText {
  title: string;
  summary: string;
  bodyMarkdown: string;
}

interface StoredVersion extends SyncText {
  outdatedSince: string | null;
  syncedSource: string | null;
}

export type TranslationTexts = Map<Locale, StoredVersion>;

const other = (locale: Locale): Locale => (locale === "en" ? "zh" : "en");

/** Line endings do not count: a browser submits a textarea's lines with CRLF, an import or the API with LF. */
const lines = (text: string) => text.replace(/\r\n?/g, "\n");

function sameText(a: SyncText | undefined, b: SyncText | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    lines(a.title) === lines(b.title) &&
    lines(a.summary) === lines(b.summary) &&
    lines(a.bodyMarkdown) === lines(b.bodyMarkdown)
  );
}

function parseSource(json: string | null): SyncText | undefined {
  if (!json) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (!value || typeof value !== "object") return undefined;
    const { title, summary, bodyMarkdown } = value as Record<string, unknown>;
    if (typeof title !== "string" || typeof summary !== "string" || typeof bodyMarkdown !== "string") return undefined;
    return { title, summary, bodyMarkdown };
  } catch {
    return undefined;
  }
}

const sourceJson = (t: SyncText): string =>
  JSON.stringify({ title: t.title, summary: t.summary, bodyMarkdown: t.bodyMarkdown });

/** A post's language versions as stored, with their marks (call inside the save's transaction, before it writes). */
export async function readTranslationTexts(db: DB, postId: string): Promise<TranslationTexts> {
  const rows = await db
    .selectFrom("postTranslations")
    .select(["locale", "title", "summary", "bodyMarkdown", "outdatedSince", "syncedSource"])
    .where("postId", "=", postId)
    .execute();
  return new Map(rows.map(({ locale, ...rest }) => [locale, rest]));
}

type Mark = { outdatedSince: string | null; syncedSource: string | null };
const IN_LINE: Mark = { outdatedSince: null, syncedSource: null };

/**
 * The marks after a save that turned the post's versions `before` into `after`:
 * - one language only: nothing to be in line with, no mark;
 * - a version whose content the save changed (or added) is in line with the other one
 *   (the writer had both at hand): its mark goes; when both changed, both are in line;
 * - a version the save left alone while the other one changed falls out of date, and keeps
 *   the other one's content before the save (what it was in line with), unless it was
 *   already out of date (it keeps the older record) or the other one was catching up with
 *   it (the other was out of date: the save brings the pair in line again), or the other one
 *   is new (a translation just written from it);
 * - a version out of date whose source came back to the text it was in line with is in line.
 * Pure (`now` dates a new mark): the caller writes the marks that differ.
 */
export function marksAfterSave(
  before: TranslationTexts,
  after: ReadonlyMap<Locale, SyncText>,
  now: string,
): Map<Locale, Mark> {
  const marks = new Map<Locale, Mark>();
  const keep = (locale: Locale): Mark => {
    const b = before.get(locale);
    return { outdatedSince: b?.outdatedSince ?? null, syncedSource: b?.syncedSource ?? null };
  };
  if (after.size < 2) {
    for (const locale of after.keys()) marks.set(locale, IN_LINE);
    return marks;
  }
  for (const locale of after.keys()) {
    const o = other(locale);
    const mine = before.get(locale);
    const theirs = before.get(o);
    const changedMine = !sameText(mine, after.get(locale));
    const changedTheirs = !sameText(theirs, after.get(o));
    if (changedMine) marks.set(locale, IN_LINE);
    else if (!changedTheirs || !theirs) marks.set(locale, mine?.outdatedSince ? keep(locale) : IN_LINE);
    else if (mine?.outdatedSince) {
      // Behind already: still behind, unless the source went back to what this version follows.
      marks.set(locale, sameText(parseSource(mine.syncedSource), after.get(o)) ? IN_LINE : keep(locale));
    } else if (theirs.outdatedSince) marks.set(locale, IN_LINE);
    else marks.set(locale, { outdatedSince: now, syncedSource: sourceJson(theirs) });
  }
  return marks;
}

/**
 * Applies the marking rules after a save wrote the post's translations (`before`: what
 * `readTranslationTexts` read before the write). Returns whether any mark changed.
 */
export async function settleTranslations(
  db: DB,
  postId: string,
  before: TranslationTexts,
  at: string = nowIso(),
): Promise<boolean> {
  const now = await readTranslationTexts(db, postId);
  const marks = marksAfterSave(before, now, at);
  let changed = false;
  for (const [locale, mark] of marks) {
    const current = now.get(locale);
    if (current && current.outdatedSince === mark.outdatedSince && current.syncedSource === mark.syncedSource) continue;
    changed = true;
    await db
      .updateTable("postTranslations")
      .set(mark)
      .where("postId", "=", postId)
      .where("locale", "=", locale)
      .execute();
  }
  return changed;
}

/** Every version of the post in line with the other: versions written together (an import, the demo seed). */
export async function markTranslationsInLine(db: DB, postId: string): Promise<void> {
  await db
    .updateTable("postTranslations")
    .set(IN_LINE)
    .where("postId", "=", postId)
    .where("outdatedSince", "is not", null)
    .execute();
}

/**
 * "Mark as up to date": the `locale` version of post `postId` is in line with the other
 * language as it stands, if `user` may edit the post (posts/post-access.server.ts) and it is
 * not in the trash. "notFound" for a post the user may not edit; "unchanged" when the version
 * was up to date already. Recorded in the audit log.
 */
export async function markTranslationInLine(
  db: DB,
  user: EditingUser,
  postId: string,
  locale: Locale,
): Promise<"marked" | "unchanged" | "notFound"> {
  const actor = await userActor(db, user.id);
  return db.transaction().execute(async (trx) => {
    const post = await trx
      .selectFrom("posts")
      .select("id")
      .where("id", "=", postId)
      .where(editableBy(user))
      .where("deletedAt", "is", null)
      .executeTakeFirst();
    if (!post) return "notFound";
    const result = await trx
      .updateTable("postTranslations")
      .set(IN_LINE)
      .where("postId", "=", postId)
      .where("locale", "=", locale)
      .where("outdatedSince", "is not", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return "unchanged";
    await audit(trx, actor, "post.translationInLine", { type: "post", id: postId }, { locale });
    return "marked";
  });
}

/** A version out of date, as the editor shows it: since when, and what changed in the other language since. */
export interface OutdatedTranslation {
  locale: Locale;
  /** The language that changed. */
  source: Locale;
  since: string;
  title: ParagraphDiff;
  summary: ParagraphDiff;
  body: ParagraphDiff;
}

/** The post's versions that are out of date, with what changed in their source since they were in line. */
export async function outdatedTranslations(db: DB, postId: string): Promise<OutdatedTranslation[]> {
  const texts = await readTranslationTexts(db, postId);
  const out: OutdatedTranslation[] = [];
  for (const [locale, version] of texts) {
    const source = other(locale);
    const current = texts.get(source);
    if (!version.outdatedSince || !current) continue;
    const was = parseSource(version.syncedSource) ?? { title: "", summary: "", bodyMarkdown: "" };
    out.push({
      locale,
      source,
      since: version.outdatedSince,
      title: paragraphDiff(was.title, current.title, source),
      summary: paragraphDiff(was.summary, current.summary, source),
      body: paragraphDiff(was.bodyMarkdown, current.bodyMarkdown, source),
    });
  }
  return out.sort((a, b) => a.locale.localeCompare(b.locale));
}
