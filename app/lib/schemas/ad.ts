import { z } from "zod";
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

/** One schema for the ad form, used in the browser and in the action. */
export const adSchema = z
  .object({
    placement: z.enum(AD_PLACEMENTS, { error: "adminLinks:errors.placementInvalid" }),
    kind: z.enum(AD_KINDS, { error: "adminLinks:errors.kindInvalid" }),
    title: z
      .string({ error: "adminLinks:errors.titleRequired" })
      .trim()
      .min(1, "adminLinks:errors.titleRequired")
      .max(120, "admin:errors.titleTooLong"),
    text: z.string().trim().max(AD_TEXT_MAX, "adminLinks:errors.textTooLong").default(""),
    imageUrl: z
      .string()
      .trim()
      .max(2000, "admin:errors.urlInvalid")
      .default("")
      .refine((v) => v === "" || isSafeUrl(v), "admin:errors.urlInvalid"),
    imageAlt: z.string().trim().max(200, "admin:errors.altTooLong").default(""),
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
  .refine((v) => v.kind !== "image" || v.imageUrl !== "", {
    path: ["imageUrl"],
    message: "admin:errors.imageRequired",
  })
  .refine((v) => v.kind !== "text" || v.text !== "", {
    path: ["text"],
    message: "adminLinks:errors.textRequired",
  })
  .refine(windowInOrder, WINDOW_ORDER);

export type AdForm = z.infer<typeof adSchema>;

/** Clicks per impression as a percentage with one decimal, or null before any impression. */
export function clickThroughRate(impressions: number, clicks: number): number | null {
  if (impressions <= 0) return null;
  return Math.round((clicks / impressions) * 1000) / 10;
}
