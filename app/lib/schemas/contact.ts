import { z } from "zod";

import { CONTACT_MESSAGE_MAX } from "./limits.ts";

export { CONTACT_MESSAGE_MAX } from "./limits.ts";

export const contactSchema = z.object({
  name: z
    .string({ error: "pages.contactNameRequired" })
    .trim()
    .min(1, "pages.contactNameRequired")
    .max(100, "pages.contactNameTooLong")
    // One line: it goes into the subject of the mail to the admins.
    .regex(/^[^\p{Cc}]*$/u, "pages.contactNameInvalid"),
  email: z
    .string({ error: "auth:errors.emailRequired" })
    .trim()
    .min(1, "auth:errors.emailRequired")
    .max(254, "auth:errors.emailInvalid")
    .pipe(z.email("auth:errors.emailInvalid")),
  message: z
    .string({ error: "pages.contactMessageRequired" })
    .trim()
    .min(1, "pages.contactMessageRequired")
    .min(10, "pages.contactMessageTooShort")
    .max(CONTACT_MESSAGE_MAX, "pages.contactMessageTooLong"),
  /** The honeypot: people leave it empty, naive bots fill it. */
  website: z.string().max(500).optional(),
});
