import { z } from "zod";
import { BIO_MAX } from "../author-profile.ts";
import { checkDisplayName, type NameProblem } from "../display-name.ts";

export const PASSWORD_CLASSES = ["lower", "upper", "digit", "symbol"] as const;
export type PasswordClass = (typeof PASSWORD_CLASSES)[number];

export interface PasswordPolicy {
  minLength: number;
  maxLength: number;
  /** Character classes a new password must each contain at least once. */
  requiredClasses: PasswordClass[];
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8, maxLength: 128, requiredClasses: [] };

const CLASS_TESTS: Record<PasswordClass, RegExp> = {
  lower: /\p{Ll}/u,
  upper: /\p{Lu}/u,
  digit: /\p{Nd}/u,
  symbol: /[^\p{L}\p{N}\s]/u,
};

/** The required classes the password lacks, in policy order. */
export function missingClasses(password: string, policy: Pick<PasswordPolicy, "requiredClasses">): PasswordClass[] {
  return policy.requiredClasses.filter((c) => !CLASS_TESTS[c].test(password));
}

const email = z
  .string({ error: "auth:errors.emailRequired" })
  .trim()
  .min(1, "auth:errors.emailRequired")
  .max(254, "auth:errors.emailInvalid")
  .pipe(z.email("auth:errors.emailInvalid"));

const password = (policy: PasswordPolicy) =>
  z
    .string({ error: "auth:errors.passwordRequired" })
    .min(1, "auth:errors.passwordRequired")
    .min(policy.minLength, "auth:errors.passwordTooShort")
    .max(policy.maxLength, "auth:errors.passwordTooLong")
    .superRefine((value, ctx) => {
      const missing = missingClasses(value, policy)[0];
      if (missing) ctx.addIssue({ code: "custom", message: `auth:errors.passwordNeeds.${missing}` });
    });

/** Login never reveals the policy; it only refuses absurd input before hashing. */
export const loginSchema = z.object({
  email,
  password: z
    .string({ error: "auth:errors.passwordRequired" })
    .min(1, "auth:errors.passwordRequired")
    .max(DEFAULT_PASSWORD_POLICY.maxLength, "auth:errors.invalidCredentials"),
  redirectTo: z.string().max(2000).optional(),
});

const NAME_ERRORS: Record<NameProblem, string> = {
  required: "auth:errors.nameRequired",
  tooLong: "auth:errors.nameTooLong",
  invalid: "auth:errors.nameInvalid",
};

/** A display name: trimmed, 1–50 characters, no control or text-direction characters (lib/display-name.ts). */
export const displayNameField = z.string({ error: NAME_ERRORS.required }).transform((value, ctx) => {
  const checked = checkDisplayName(value);
  if (checked.ok) return checked.name;
  ctx.addIssue({ code: "custom", message: NAME_ERRORS[checked.problem] });
  return z.NEVER;
});

export const registerSchema = (policy: PasswordPolicy) =>
  z.object({ name: displayNameField, email, password: password(policy) });

export const emailOnlySchema = z.object({ email });

/** Which versions of new posts a subscriber gets. */
export const SUBSCRIBER_LANGUAGES = ["en", "zh", "both"] as const;
const languages = z.enum(SUBSCRIBER_LANGUAGES, { error: "common:subscribe.languageInvalid" });

/** The subscribe form: an address and, optionally, the languages (default: the page's). */
export const subscribeSchema = z.object({ email, languages: languages.optional() });

/** The language form on the page a newsletter's links lead to. */
export const subscriberLanguagesSchema = z.object({ token: z.string().min(1).max(500), languages });

export const resetSchema = (policy: PasswordPolicy) =>
  z.object({ token: z.string().min(1).max(500), password: password(policy) });

export const tokenSchema = z.object({ token: z.string().min(1).max(500) });

export const changePasswordSchema = (policy: PasswordPolicy) =>
  z.object({
    currentPassword: z
      .string({ error: "auth:errors.passwordRequired" })
      .min(1, "auth:errors.passwordRequired")
      .max(policy.maxLength, "auth:account.wrongPassword"),
    password: password(policy),
  });

/** The account page's public profile: the name, an optional bio, an optional avatar (an uploaded image's URL). */
export const profileSchema = z.object({
  name: displayNameField,
  bio: z
    .string()
    .trim()
    .max(BIO_MAX, "auth:account.bioTooLong")
    .optional()
    .transform((v) => v || null),
  // An image from the media library (the upload pipeline), by its address; empty: none.
  avatar: z
    .string()
    .trim()
    .max(500, "auth:account.avatarInvalid")
    .refine((v) => v === "" || /^\/media\/[A-Za-z0-9]+\/[A-Za-z0-9._-]+$/.test(v), "auth:account.avatarInvalid")
    .optional()
    .transform((v) => v || null),
});

export const changeEmailSchema = z.object({ newEmail: email });

export const deleteAccountSchema = z.object({
  password: z.string().max(DEFAULT_PASSWORD_POLICY.maxLength, "auth:account.wrongPassword").optional(),
  confirm: z.literal("DELETE", { error: "auth:account.deleteConfirmError" }),
});
