import { z } from "zod";
import { withinNesting } from "../markdown-depth.ts";
import { COMMENT_MAX_LENGTH } from "./limits.ts";

export { COMMENT_MAX_LENGTH, COMMENT_MAX_LINKS } from "./limits.ts";

/** The comment and reply forms (the link limit is checked on the server, which renders the Markdown). */
export const commentSchema = z.object({
  body: z
    .string({ error: "post:comments.errors.bodyRequired" })
    .trim()
    .min(1, "post:comments.errors.bodyRequired")
    .max(COMMENT_MAX_LENGTH, "post:comments.errors.bodyTooLong")
    .refine(withinNesting, "post:comments.errors.tooDeep"),
  /** The comment replied to (a reply's own parent is used when it is a reply); checked by the server. */
  parentId: z.string().optional(),
  /** The honeypot: people leave it empty, naive bots fill it (with anything: it is dropped unread). */
  website: z.string().optional(),
});
