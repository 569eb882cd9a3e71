import { z } from "zod";
import { isSafeUrl } from "./swaper.ts";

/** An absolute http:// or https:// URL (no other scheme, no relative path). */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** One schema for the friend link form, used in the browser and in the action. */
export const linkSchema = z.object({
  name: z
    .string({ error: "admin:errors.nameRequired" })
    .trim()
    .min(1, "admin:errors.nameRequired")
    .max(60, "admin:errors.nameTooLong"),
  url: z
    .string({ error: "adminLinks:errors.httpUrl" })
    .trim()
    .max(2000, "adminLinks:errors.httpUrl")
    .refine(isHttpUrl, "adminLinks:errors.httpUrl"),
  logoUrl: z
    .string()
    .trim()
    .max(2000, "admin:errors.urlInvalid")
    .default("")
    .refine((v) => v === "" || isSafeUrl(v), "admin:errors.urlInvalid"),
  description: z.string().trim().max(300, "adminLinks:errors.descriptionTooLong").default(""),
  sortOrder: z
    .string()
    .trim()
    .default("0")
    .refine((v) => /^-?\d{1,6}$/.test(v || "0"), "admin:errors.orderInvalid"),
  enabled: z.string().optional(),
});
