import { z } from "zod";
import type { Locale } from "../i18n/locale.ts";
import { isHttpUrl } from "./link.ts";
import { isSafeUrl } from "./swaper.ts";
import { WINDOW_ORDER, windowFields, windowInOrder } from "./time-window.ts";

/**
 * Where an ad can show: each is a slot some reader page asks `adFor()` for (a test keeps
 * it so). "sidebar" is a stored name from an older layout: the one-column post page shows
 * that slot after the related posts, and the admin calls it so (decision 017).
 */
export const AD_PLACEMENTS = ["home_top", "sidebar", "post_bottom", "list_between"] as const;
export type AdPlacementValue = (typeof AD_PLACEMENTS)[number];
export const AD_KINDS = ["image", "text"] as const;
export const AD_TEXT_MAX = 200;
/** Sort keys of the admin list (an allowlist: the query never takes a column name from the URL). */
export const AD_SORTS = ["newest", "title", "impressions", "clicks"] as const;
export type AdSort = (typeof AD_SORTS)[number];

/** The language versions of an ad, in form order. */
export const AD_LOCALES = ["en", "zh"] as const satisfies readonly Locale[];

/** The form fields (and app fields) of an ad's content: `titleEn` … `imageAltZh`. */
export type AdContentField = `${"title" | "text" | "imageUrl" | "imageAlt"}${"En" | "Zh"}`;

const suffix = (locale: Locale) => (locale === "en" ? "En" : "Zh");

/** The field of one language version, e.g. `adField("zh", "title")` is `titleZh`. */
export function adField(locale: Locale, field: "title" | "text" | "imageUrl" | "imageAlt"): AdContentField {
  return `${field}${suffix(locale)}`;
}

const title = () => z.string().trim().max(120, "admin:errors.titleTooLong").default("");
const text = () => z.string().trim().max(AD_TEXT_MAX, "adminLinks:errors.textTooLong").default("");
const imageUrl = () =>
  z
    .string()
    .trim()
    .max(2000, "admin:errors.urlInvalid")
    .default("")
    .refine((v) => v === "" || isSafeUrl(v), "admin:errors.urlInvalid");
const imageAlt = () => z.string().trim().max(200, "admin:errors.altTooLong").default("");

/**
 * One schema for the ad form, used in the browser and in the action. Each language
 * version (title, text, image, image description) may be left empty, not both; a
 * version that is filled in at all needs its title, and the text (text ads) or the
 * image (image ads). A reader whose language has no version sees the other one.
 */
export const adSchema = z
  .object({
    placement: z.enum(AD_PLACEMENTS, { error: "adminLinks:errors.placementInvalid" }),
    kind: z.enum(AD_KINDS, { error: "adminLinks:errors.kindInvalid" }),
    titleEn: title(),
    textEn: text(),
    imageUrlEn: imageUrl(),
    imageAltEn: imageAlt(),
    titleZh: title(),
    textZh: text(),
    imageUrlZh: imageUrl(),
    imageAltZh: imageAlt(),
    linkUrl: z
      .string({ error: "adminLinks:errors.httpUrl" })
      .trim()
      .max(2000, "adminLinks:errors.httpUrl")
      .refine(isHttpUrl, "adminLinks:errors.httpUrl"),
    weight: z
      .string()
      .trim()
      .default("1")
      .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= 100, "adminLinks:errors.weightInvalid"),
    enabled: z.string().optional(),
    ...windowFields,
  })
  .superRefine((v, ctx) => {
    const filled = AD_LOCALES.filter((l) =>
      (["title", "text", "imageUrl", "imageAlt"] as const).some((f) => v[adField(l, f)] !== ""),
    );
    if (filled.length === 0) {
      ctx.addIssue({ code: "custom", path: ["titleEn"], message: "adminLinks:errors.contentRequired" });
    }
    for (const l of filled) {
      if (v[adField(l, "title")] === "") {
        ctx.addIssue({ code: "custom", path: [adField(l, "title")], message: "adminLinks:errors.titleRequired" });
      }
      if (v.kind === "text" && v[adField(l, "text")] === "") {
        ctx.addIssue({ code: "custom", path: [adField(l, "text")], message: "adminLinks:errors.textRequired" });
      }
      if (v.kind === "image" && v[adField(l, "imageUrl")] === "") {
        ctx.addIssue({ code: "custom", path: [adField(l, "imageUrl")], message: "admin:errors.imageRequired" });
      }
    }
  })
  .refine(windowInOrder, WINDOW_ORDER);

/** Clicks per impression as a percentage with one decimal, or null before any impression. */
export function clickThroughRate(impressions: number, clicks: number): number | null {
  if (impressions <= 0) return null;
  return Math.round((clicks / impressions) * 1000) / 10;
}

/** One language version of an ad, as a reader sees it. */
export interface AdContent {
  title: string;
  text: string;
  imageUrl: string | null;
  imageAlt: string;
}

/** Both language versions, as stored (an empty title = no version in that language). */
export type AdContents = { [K in AdContentField]: K extends `imageUrl${string}` ? string | null : string };

function versionOf(ad: AdContents, locale: Locale): AdContent {
  return {
    title: ad[adField(locale, "title")] ?? "",
    text: ad[adField(locale, "text")] ?? "",
    imageUrl: ad[adField(locale, "imageUrl")] || null,
    imageAlt: ad[adField(locale, "imageAlt")] ?? "",
  };
}

/** The version for a reader of `locale`: their language's, else the other one (decision 018). */
export function adContent(ad: AdContents, locale: Locale): AdContent {
  const own = versionOf(ad, locale);
  return own.title ? own : versionOf(ad, locale === "en" ? "zh" : "en");
}
