import { z } from "zod";
import { SLUG_PATTERN } from "./term.ts";

/** Limits of a page's fields (issue 48, decision 035). */
export const PAGE_LIMITS = { slugMax: 80, titleMax: 200, bodyMax: 100_000, descriptionMax: 300 } as const;

export const PAGE_STATUSES = ["draft", "published"] as const;
export type PageStatus = (typeof PAGE_STATUSES)[number];

const text = (max: number, tooLong: string) => z.string().trim().max(max, tooLong).default("");
const body = z.string().max(PAGE_LIMITS.bodyMax, "adminPages:errors.bodyTooLong").default("");

/**
 * The page form, browser and action alike: an address (empty: made from the English title by
 * the server), draft or published, and per language a title, the Markdown body and a search
 * description. At least one language needs a title; a language with a body needs its title.
 */
export const pageSchema = z
  .object({
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(PAGE_LIMITS.slugMax, "adminPages:errors.slugTooLong")
      .refine((v) => v === "" || SLUG_PATTERN.test(v), "adminPages:errors.slugPattern")
      .default(""),
    status: z.enum(PAGE_STATUSES, { error: "adminPages:errors.status" }).default("draft"),
    titleEn: text(PAGE_LIMITS.titleMax, "adminPages:errors.titleTooLong"),
    titleZh: text(PAGE_LIMITS.titleMax, "adminPages:errors.titleTooLong"),
    bodyEn: body,
    bodyZh: body,
    descriptionEn: text(PAGE_LIMITS.descriptionMax, "adminPages:errors.descriptionTooLong"),
    descriptionZh: text(PAGE_LIMITS.descriptionMax, "adminPages:errors.descriptionTooLong"),
    version: z.string().trim().default(""),
  })
  .superRefine((v, ctx) => {
    if (!v.titleEn && !v.titleZh) {
      ctx.addIssue({ code: "custom", path: ["titleEn"], message: "adminPages:errors.titleRequired" });
    }
    if (v.bodyEn.trim() && !v.titleEn) {
      ctx.addIssue({ code: "custom", path: ["titleEn"], message: "adminPages:errors.titleForBody" });
    }
    if (v.bodyZh.trim() && !v.titleZh) {
      ctx.addIssue({ code: "custom", path: ["titleZh"], message: "adminPages:errors.titleForBody" });
    }
  });

export type PageForm = z.infer<typeof pageSchema>;

/** A slug from a title: lower-case ASCII letters, digits and hyphens; "" when nothing is left. */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, PAGE_LIMITS.slugMax)
    .replace(/-+$/, "");
}
