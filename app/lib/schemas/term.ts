import { z } from "zod";

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The category / tag form (tags ignore description and order), browser and action alike. */
export const termSchema = z.object({
  nameEn: z
    .string({ error: "admin:errors.nameRequired" })
    .trim()
    .min(1, "admin:errors.nameRequired")
    .max(60, "admin:errors.nameTooLong"),
  nameZh: z
    .string({ error: "admin:errors.nameRequired" })
    .trim()
    .min(1, "admin:errors.nameRequired")
    .max(60, "admin:errors.nameTooLong"),
  slug: z
    .string({ error: "admin:errors.slugInvalid" })
    .trim()
    .toLowerCase()
    .max(80, "admin:errors.slugInvalid")
    // Empty: the server makes one from the names (pinyin for Chinese), so a form without JS still works.
    .refine((v) => v === "" || SLUG_PATTERN.test(v), "admin:errors.slugInvalid")
    .default(""),
  description: z.string().trim().max(500, "admin:errors.descriptionTooLong").default(""),
  sortOrder: z
    .string()
    .trim()
    .default("0")
    .refine((v) => /^-?\d{1,6}$/.test(v || "0"), "admin:errors.orderInvalid"),
});
