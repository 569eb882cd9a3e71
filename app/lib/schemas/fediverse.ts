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

/** A host name (or IPv4 address) as a domain block takes it: labels of letters, digits and dashes. */
export const DOMAIN_PATTERN =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The form that blocks a whole server: its domain (subdomains are blocked with it). */
export const domainBlockSchema = z.object({
  domain: z.string().trim().toLowerCase().regex(DOMAIN_PATTERN, "adminConfig:fediverse.errors.domain"),
});

/** A remote actor's id as a block names it: an http(s) address. */
export const actorBlockSchema = z.object({
  blockActor: z
    .string()
    .trim()
    .max(1000, "adminConfig:fediverse.errors.actor")
    .regex(/^https?:\/\/[^\s]+$/i, "adminConfig:fediverse.errors.actor")
    .refine((v) => URL.canParse(v), "adminConfig:fediverse.errors.actor"),
});
