import { z } from "zod";
import { termSchema } from "./term.ts";

/** The admin's series form: names and slug as for categories, a description per language. */
export const seriesSchema = termSchema.pick({ nameEn: true, nameZh: true, slug: true }).extend({
  descriptionEn: z.string().trim().max(500, "admin:errors.descriptionTooLong").default(""),
  descriptionZh: z.string().trim().max(500, "admin:errors.descriptionTooLong").default(""),
});
