import { z } from "zod";
import { WINDOW_ORDER, windowFields, windowInOrder } from "./time-window.ts";

/** http(s) URL or a site-relative path (not `//host`). */
export function isSafeUrl(value: string): boolean {
  if (/^\/(?![/\\])/.test(value)) return true;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const optionalText = (max: number, message: string) => z.string().trim().max(max, message).default("");

/** One schema for the slide form, used in the browser and in the action. */
export const swaperSchema = z
  .object({
    titleEn: optionalText(120, "admin:errors.titleTooLong"),
    titleZh: optionalText(120, "admin:errors.titleTooLong"),
    imageUrl: z
      .string({ error: "admin:errors.imageRequired" })
      .trim()
      .min(1, "admin:errors.imageRequired")
      .max(2000, "admin:errors.urlInvalid")
      .refine(isSafeUrl, "admin:errors.urlInvalid"),
    imageAlt: optionalText(200, "admin:errors.altTooLong"),
    linkUrl: z
      .string()
      .trim()
      .max(2000, "admin:errors.urlInvalid")
      .default("")
      .refine((v) => v === "" || isSafeUrl(v), "admin:errors.urlInvalid"),
    sortOrder: z
      .string()
      .trim()
      .default("0")
      .refine((v) => /^-?\d{1,6}$/.test(v || "0"), "admin:errors.orderInvalid"),
    enabled: z.string().optional(),
    ...windowFields,
  })
  .refine(windowInOrder, WINDOW_ORDER);
