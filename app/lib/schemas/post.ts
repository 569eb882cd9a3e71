import { z } from "zod";
import type { Locale } from "../i18n/locale.ts";
import { RECORD_ID } from "../ids.ts";
import { withinNesting } from "../markdown-depth.ts";

/** Limits of the post editor; also the variables of its error messages. */
export const POST_LIMITS = {
  titleMax: 200,
  summaryMax: 500,
  bodyMax: 200_000,
  seoTitleMax: 200,
  seoDescriptionMax: 500,
  slugMax: 80,
  tagsMax: 10,
  tagMax: 40,
  coverUrlMax: 2000,
  coverAltMax: 300,
  seriesNameMax: 60,
  seriesPositionMax: 9999,
} as const;

/** The series menu's value for "a new series" (named in the fields beside it). */
export const NEW_SERIES = "new";

export const POST_STATUSES = ["draft", "published", "scheduled"] as const;
export type EditorStatus = (typeof POST_STATUSES)[number];

/** The language versions, in tab order. */
export const EDITOR_LOCALES = ["en", "zh"] as const satisfies readonly Locale[];

export const TRANSLATION_FIELDS = ["Title", "Summary", "SeoTitle", "SeoDescription", "Body"] as const;
export type TranslationField = (typeof TRANSLATION_FIELDS)[number];

/** The form field of one language version, e.g. `enTitle`, `zhBody`. */
export function translationField(locale: Locale, field: TranslationField): string {
  return `${locale}${field}`;
}

/** The language version a form field belongs to (for marking tabs with errors), or null. */
export function localeOfField(name: string): Locale | null {
  const m = /^(en|zh)(Title|Summary|SeoTitle|SeoDescription|Body)$/.exec(name);
  return m ? (m[1] as Locale) : null;
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LOCAL_DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value and the browser's UTC offset for that moment (minutes,
 * as `Date#getTimezoneOffset` gives it: UTC = local + offset) as a UTC ISO string.
 * Without JavaScript the offset stays 0 and the time is read as UTC. Null when the
 * value is not a valid date and time.
 */
export function localDateTimeToIso(local: string, offsetMinutes: number): string | null {
  const m = LOCAL_DATETIME.exec(local);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0)) as number[];
  const ms = Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1, hour ?? 0, minute ?? 0, second ?? 0);
  const check = new Date(ms);
  // Date.UTC rolls 2026-02-31 over into March: refuse instead.
  if (check.getUTCDate() !== day || check.getUTCMonth() !== (month ?? 1) - 1 || (year ?? 0) < 1970) return null;
  if ((year ?? 0) > 9999) return null;
  return new Date(ms + offsetMinutes * 60_000).toISOString();
}

/** An ISO instant as a `datetime-local` value (minutes) at the given UTC offset. */
export function isoToLocalDateTime(iso: string | null, offsetMinutes: number): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  return new Date(ms - offsetMinutes * 60_000).toISOString().slice(0, 16);
}

/** Tags as typed: comma-separated (also Chinese commas), trimmed, duplicates (any case) once. */
export function splitTags(raw: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of raw.split(/[,，、\n]/)) {
    const tag = part.trim().replace(/\s+/g, " ");
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/** An absolute http(s) URL or a site-relative path (`/uploads/a.jpg`, never `//host`). */
export function isCoverUrl(value: string): boolean {
  if (/^\/(?![/\\])\S*$/.test(value)) return true;
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const text = (max: number, key: string) => z.string().trim().max(max, key).default("");
const version = z
  .string()
  .regex(/^[1-9]\d{0,8}$/, "editor:errors.invalidForm")
  .transform(Number)
  .optional();

const title = text(POST_LIMITS.titleMax, "editor:errors.titleTooLong");
const summary = text(POST_LIMITS.summaryMax, "editor:errors.summaryTooLong");
const seoTitle = text(POST_LIMITS.seoTitleMax, "editor:errors.seoTitleTooLong");
const seoDescription = text(POST_LIMITS.seoDescriptionMax, "editor:errors.seoDescriptionTooLong");
// The body is Markdown: leading and trailing whitespace can matter, keep it.
const body = z
  .string()
  .max(POST_LIMITS.bodyMax, "editor:errors.bodyTooLong")
  .refine(withinNesting, "editor:errors.bodyTooDeep")
  .default("");

export interface EditorTranslation {
  locale: Locale;
  title: string;
  summary: string;
  bodyMarkdown: string;
  seoTitle: string | null;
  seoDescription: string | null;
}

/** What the editor form gives the repository once valid. */
export interface EditorInput {
  /** The create form's idempotency key (becomes the post id). */
  key?: string | undefined;
  /** The version the form was loaded at (edit). */
  version?: number | undefined;
  /** Empty: generated from the English title (or random). */
  slug: string;
  categoryId: string | null;
  tags: string[];
  coverImageUrl: string | null;
  coverAlt: string;
  status: EditorStatus;
  /** UTC ISO, or null when not given. */
  publishAt: string | null;
  /** "Email this post to subscribers" when it first goes live (default: no). */
  newsletter?: boolean;
  /**
   * "Share on the Fediverse" (issue 22): whether the post federates; absent (a form without
   * the box, a restored revision, a scheduled update): the post keeps what it has.
   */
  federate?: boolean;
  /** The series the post belongs to (absent or null: none). */
  seriesId?: string | null;
  /** Its part number there; null: after the series' last part (or the part it already is). */
  seriesPosition?: number | null;
  /** A series to create with the save and put the post in (instead of `seriesId`). */
  newSeries?: { nameEn: string; nameZh: string } | null;
  /** Only the language versions that have a title. */
  translations: EditorTranslation[];
}

/** Published posts may carry a time up to this far ahead (clock skew); later needs "scheduled". */
const PUBLISHED_FUTURE_SLACK_MS = 5 * 60_000;

/**
 * The post editor's form: one schema for the browser (before submitting) and the
 * action. Messages are i18n keys of the `editor` namespace.
 */
export function makePostFormSchema(now: () => number = Date.now) {
  return z
    .object({
      key: z.string().regex(RECORD_ID, "editor:errors.invalidForm").optional(),
      version,
      /** "Overwrite with mine" after a conflict: the version to overwrite. */
      overwriteVersion: version,
      enTitle: title,
      enSummary: summary,
      enSeoTitle: seoTitle,
      enSeoDescription: seoDescription,
      enBody: body,
      zhTitle: title,
      zhSummary: summary,
      zhSeoTitle: seoTitle,
      zhSeoDescription: seoDescription,
      zhBody: body,
      slug: z
        .string()
        .trim()
        .toLowerCase()
        .max(POST_LIMITS.slugMax, "editor:errors.slugTooLong")
        .refine((v) => v === "" || SLUG_PATTERN.test(v), "editor:errors.slugPattern")
        .default(""),
      categoryId: z.string().trim().max(40, "editor:errors.categoryUnknown").default(""),
      tags: z.string().max(2000, "editor:errors.tooManyTags").default(""),
      coverImageUrl: z
        .string()
        .trim()
        .max(POST_LIMITS.coverUrlMax, "editor:errors.coverUrlInvalid")
        .refine((v) => v === "" || isCoverUrl(v), "editor:errors.coverUrlInvalid")
        .default(""),
      coverAlt: text(POST_LIMITS.coverAltMax, "editor:errors.coverAltTooLong"),
      status: z.enum(POST_STATUSES, { error: "editor:errors.statusInvalid" }),
      publishAtLocal: z.string().trim().max(40, "editor:errors.publishAtInvalid").default(""),
      publishAtTz: z
        .string()
        .regex(/^-?\d{1,4}$/, "editor:errors.publishAtInvalid")
        .default("0"),
      /** The "email this post to subscribers" checkbox: "1" when ticked, absent when not. */
      newsletter: z.enum(["1"], { error: "editor:errors.invalidForm" }).optional(),
      /** The "Share on the Fediverse" checkbox ("1" when ticked) and the marker that the form has it. */
      federate: z.enum(["1"], { error: "editor:errors.invalidForm" }).optional(),
      federateShown: z.enum(["1"], { error: "editor:errors.invalidForm" }).optional(),
      /** A series id, NEW_SERIES, or empty for none. */
      seriesId: z.string().trim().max(40, "editor:errors.seriesUnknown").default(""),
      seriesNameEn: text(POST_LIMITS.seriesNameMax, "editor:errors.seriesNameTooLong"),
      seriesNameZh: text(POST_LIMITS.seriesNameMax, "editor:errors.seriesNameTooLong"),
      seriesPosition: z
        .string()
        .trim()
        .default("")
        .refine(
          (v) => v === "" || (/^\d{1,4}$/.test(v) && Number(v) >= 1 && Number(v) <= POST_LIMITS.seriesPositionMax),
          "editor:errors.seriesPositionInvalid",
        ),
    })
    .superRefine((form, ctx) => {
      const values = form as Record<string, unknown>;
      const str = (name: string) => String(values[name] ?? "");
      let titles = 0;
      for (const locale of EDITOR_LOCALES) {
        const title = str(translationField(locale, "Title"));
        const hasContent = (["Summary", "SeoTitle", "SeoDescription", "Body"] as const).some(
          (f) => str(translationField(locale, f)).trim() !== "",
        );
        if (title) titles += 1;
        else if (hasContent)
          ctx.addIssue({
            code: "custom",
            path: [translationField(locale, "Title")],
            message: "editor:errors.titleRequiredWithContent",
          });
      }
      const anyContent = EDITOR_LOCALES.some((l) =>
        TRANSLATION_FIELDS.some((f) => str(translationField(l, f)).trim() !== ""),
      );
      // With content but no title, that language's title already has its error.
      if (titles === 0 && !anyContent)
        ctx.addIssue({ code: "custom", path: ["enTitle"], message: "editor:errors.oneTitleRequired" });

      if (form.seriesId === NEW_SERIES && !form.seriesNameEn && !form.seriesNameZh)
        ctx.addIssue({ code: "custom", path: ["seriesNameEn"], message: "editor:errors.seriesNameRequired" });

      const tags = splitTags(form.tags);
      if (tags.length > POST_LIMITS.tagsMax)
        ctx.addIssue({ code: "custom", path: ["tags"], message: "editor:errors.tooManyTags" });
      else if (tags.some((t) => t.length > POST_LIMITS.tagMax))
        ctx.addIssue({ code: "custom", path: ["tags"], message: "editor:errors.tagTooLong" });

      let publishAt: string | null = null;
      if (form.publishAtLocal) {
        publishAt = localDateTimeToIso(form.publishAtLocal, Number(form.publishAtTz));
        if (!publishAt) {
          ctx.addIssue({ code: "custom", path: ["publishAtLocal"], message: "editor:errors.publishAtInvalid" });
          return;
        }
      }
      const at = publishAt ? Date.parse(publishAt) : null;
      if (form.status === "scheduled") {
        if (at === null)
          ctx.addIssue({ code: "custom", path: ["publishAtLocal"], message: "editor:errors.publishAtRequired" });
        else if (at <= now())
          ctx.addIssue({ code: "custom", path: ["publishAtLocal"], message: "editor:errors.publishAtPast" });
      } else if (form.status === "published" && at !== null && at > now() + PUBLISHED_FUTURE_SLACK_MS) {
        ctx.addIssue({ code: "custom", path: ["publishAtLocal"], message: "editor:errors.publishedInFuture" });
      }
    })
    .transform((form): EditorInput => {
      const values = form as Record<string, unknown>;
      const str = (name: string) => String(values[name] ?? "");
      const translations: EditorTranslation[] = [];
      for (const locale of EDITOR_LOCALES) {
        const title = str(translationField(locale, "Title"));
        if (!title) continue;
        translations.push({
          locale,
          title,
          summary: str(translationField(locale, "Summary")),
          bodyMarkdown: str(translationField(locale, "Body")),
          seoTitle: str(translationField(locale, "SeoTitle")) || null,
          seoDescription: str(translationField(locale, "SeoDescription")) || null,
        });
      }
      return {
        key: form.key,
        version: form.overwriteVersion ?? form.version,
        slug: form.slug,
        categoryId: form.categoryId || null,
        tags: splitTags(form.tags),
        coverImageUrl: form.coverImageUrl || null,
        coverAlt: form.coverAlt,
        status: form.status,
        publishAt: form.publishAtLocal ? localDateTimeToIso(form.publishAtLocal, Number(form.publishAtTz)) : null,
        newsletter: form.newsletter === "1",
        ...(form.federateShown === "1" ? { federate: form.federate === "1" } : {}),
        seriesId: form.seriesId && form.seriesId !== NEW_SERIES ? form.seriesId : null,
        seriesPosition: form.seriesId && form.seriesPosition ? Number(form.seriesPosition) : null,
        newSeries: form.seriesId === NEW_SERIES ? { nameEn: form.seriesNameEn, nameZh: form.seriesNameZh } : null,
        translations,
      };
    });
}

export const postFormSchema = makePostFormSchema();
