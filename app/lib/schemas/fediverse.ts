import { z } from "zod";

/** A Fediverse handle's local part ("blog" in @blog@example.com): what Mastodon accepts, kept short. */
export const HANDLE_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,29}$/i;

const handle = z.string().trim().regex(HANDLE_PATTERN, "adminConfig:fediverse.errors.handle");

/** The Fediverse page's form: the switch and each language's handle. */
export const fediverseSchema = z
  .object({
    enabled: z.literal("on").optional(),
    handleZh: handle,
    handleEn: handle,
  })
  .refine((v) => v.handleZh.toLowerCase() !== v.handleEn.toLowerCase(), {
    message: "adminConfig:fediverse.errors.sameHandle",
    path: ["handleEn"],
  });
