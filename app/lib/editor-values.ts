import type { Locale } from "./i18n/locale.ts";
import {
  EDITOR_LOCALES,
  type EditorStatus,
  isoToLocalDateTime,
  localDateTimeToIso,
  TRANSLATION_FIELDS,
  translationField,
} from "./schemas/post.ts";

/** Every field of the post editor form, as the strings the form holds. */
export const EDITOR_FIELDS = [
  ...EDITOR_LOCALES.flatMap((l) => TRANSLATION_FIELDS.map((f) => translationField(l, f))),
  "slug",
  "categoryId",
  "tags",
  "coverImageUrl",
  "coverAlt",
  "status",
  "publishAtLocal",
  "publishAtTz",
  "newsletter",
  "federate",
  "seriesId",
  "seriesNameEn",
  "seriesNameZh",
  "seriesPosition",
] as const;

export type EditorValues = Record<string, string>;

export function emptyEditorValues(): EditorValues {
  const values: EditorValues = {};
  for (const name of EDITOR_FIELDS) values[name] = "";
  values.status = "draft";
  values.publishAtTz = "0";
  // A new post is mailed to subscribers when it goes live, unless the author says no.
  values.newsletter = "1";
  // …and shared on the Fediverse, unless the author says no (or back-dates it).
  values.federate = "1";
  return values;
}

/** The editor's fields of a submitted form (anything else is ignored). */
export function editorValuesFromForm(form: FormData): EditorValues {
  const values = emptyEditorValues();
  for (const name of EDITOR_FIELDS) {
    const v = form.get(name);
    if (typeof v === "string") values[name] = v;
  }
  // An unticked checkbox sends nothing.
  values.newsletter = form.get("newsletter") === "1" ? "1" : "";
  values.federate = form.get("federate") === "1" ? "1" : "";
  return values;
}

export interface EditablePost {
  slug: string;
  status: EditorStatus;
  publishedAt: string | null;
  categoryId: string | null;
  coverImageUrl: string | null;
  coverAlt: string;
  /** The "email subscribers" box as saved. */
  newsletter?: boolean;
  /** The "Share on the Fediverse" box as saved (absent: on). */
  federate?: boolean;
  seriesId?: string | null;
  seriesPosition?: number | null;
  translations: Partial<
    Record<
      Locale,
      { title: string; summary: string; bodyMarkdown: string; seoTitle: string | null; seoDescription: string | null }
    >
  >;
}

/** A stored post as form values; the publish time in UTC (the browser moves it to local time). */
export function editorValuesFromPost(post: EditablePost, tagNames: readonly string[]): EditorValues {
  const values = emptyEditorValues();
  for (const locale of EDITOR_LOCALES) {
    const t = post.translations[locale];
    if (!t) continue;
    values[translationField(locale, "Title")] = t.title;
    values[translationField(locale, "Summary")] = t.summary;
    values[translationField(locale, "SeoTitle")] = t.seoTitle ?? "";
    values[translationField(locale, "SeoDescription")] = t.seoDescription ?? "";
    values[translationField(locale, "Body")] = t.bodyMarkdown;
  }
  values.slug = post.slug;
  values.status = post.status;
  values.categoryId = post.categoryId ?? "";
  values.coverImageUrl = post.coverImageUrl ?? "";
  values.coverAlt = post.coverAlt;
  values.tags = tagNames.join(", ");
  values.publishAtLocal = isoToLocalDateTime(post.publishedAt, 0);
  values.publishAtTz = "0";
  values.newsletter = post.newsletter ? "1" : "";
  values.federate = post.federate === false ? "" : "1";
  values.seriesId = post.seriesId ?? "";
  values.seriesPosition = post.seriesId && post.seriesPosition ? String(post.seriesPosition) : "";
  return values;
}

/** The browser's UTC offset (minutes, as getTimezoneOffset) at a datetime-local moment. */
export function browserOffsetAt(local: string): number {
  const ms = Date.parse(local);
  return Number.isNaN(ms) ? new Date().getTimezoneOffset() : new Date(ms).getTimezoneOffset();
}

/** Moves a publish time written in UTC (offset 0, from the server) to the browser's time zone. */
export function toBrowserTime(values: EditorValues): EditorValues {
  if (values.publishAtTz !== "0" || !values.publishAtLocal) return values;
  const iso = localDateTimeToIso(values.publishAtLocal, 0);
  if (!iso) return values;
  const offset = new Date(iso).getTimezoneOffset();
  if (offset === 0) return values;
  return { ...values, publishAtLocal: isoToLocalDateTime(iso, offset), publishAtTz: String(offset) };
}

export function sameValues(a: EditorValues, b: EditorValues): boolean {
  return EDITOR_FIELDS.every((name) => (a[name] ?? "") === (b[name] ?? ""));
}
