import { z } from "zod";
import { HEX_COLOUR } from "../brand.ts";
import { MEDIA_URL_RE } from "../media.ts";

/** An upload's address, as the "Upload an image" button fills it in; empty for none. */
const upload = z
  .string()
  .trim()
  .default("")
  .refine((v) => v === "" || MEDIA_URL_RE.test(v), "adminBrand:errors.upload");

/**
 * The brand form (admin/brand). The accent's contrast is checked on top of this, in the
 * action and in the page as it is typed (lib/brand.ts): its message needs both colours.
 */
export const brandSchema = z.object({
  accent: z
    .string()
    .trim()
    .toLowerCase()
    .default("")
    .refine((v) => v === "" || HEX_COLOUR.test(v), "adminBrand:errors.accentFormat"),
  logo: upload,
  icon: upload,
  typeface: z.enum(["sans", "serif"], { error: "adminBrand:errors.typeface" }).default("sans"),
  homeLayout: z.enum(["list", "grid", "hero"], { error: "adminBrand:errors.homeLayout" }).default("list"),
  /** The home page's cover (an upload) and its description per language ("" says the site's name). */
  cover: upload,
  coverAltEn: z.string().trim().max(200, "adminBrand:errors.coverAltTooLong").default(""),
  coverAltZh: z.string().trim().max(200, "adminBrand:errors.coverAltTooLong").default(""),
  largeText: z.literal("on").optional(),
  viewCounts: z.literal("on").optional(),
});

export type BrandForm = z.infer<typeof brandSchema>;
