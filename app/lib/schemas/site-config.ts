import { z } from "zod";
import { PASSWORD_CLASSES, type PasswordClass } from "./auth.ts";
import { isSafeUrl } from "./swaper.ts";

/** The settings this form edits (a structural copy of the server's SiteSettings, which must fit it). */
export interface ConfigSettings {
  siteName: { en: string; zh: string };
  siteDescription: { en: string; zh: string };
  aboutText: { en: string; zh: string };
  socialLinks: { github: string; x: string; weibo: string; zhihu: string };
  copyright: { en: string; zh: string };
  filing: { icp: string; police: string };
  postsPerPage: number;
  languageButtonsForEveryone: boolean;
  footerLinks: boolean;
  translationNotice: boolean;
  commentModeration: "auto" | "hold";
  moderationNotice: "each" | "daily" | "off";
  registrationOpen: boolean;
  socialImage: string;
  passwordPolicy: { minLength: number; requiredClasses: PasswordClass[] } | null;
}

export const POSTS_PER_PAGE_MAX = 50;
export const PASSWORD_MIN_LENGTH_FLOOR = 6;
export const PAGE_MAX = 50_000;

const LIMITS = { siteName: 100, siteDescription: 300, aboutText: 600, copyright: 200, filing: 60 } as const;

/**
 * A filing number as shown in the footer ("京ICP备12345678号-1", "京公网安备 11010502030143号"):
 * one line of at most 60 characters, or empty.
 */
const filingNumber = z
  .string()
  .trim()
  .max(LIMITS.filing, "adminConfig:errors.filing")
  .default("")
  .refine((v) => !/[\p{Cc}<>]/u.test(v), "adminConfig:errors.filing");

const text = (max: number, message: string) => z.string().trim().max(max, message).default("");
const required = (max: number, requiredMessage: string, tooLong: string) =>
  z.string({ error: requiredMessage }).trim().min(1, requiredMessage).max(max, tooLong);
/** A social profile: empty (hidden) or an http(s) address. */
const socialUrl = z
  .string()
  .trim()
  .max(500, "adminConfig:errors.socialUrl")
  .default("")
  .refine((v) => v === "" || /^https?:\/\/[^/\s]/i.test(v), "adminConfig:errors.socialUrl")
  .refine((v) => {
    if (v === "") return true;
    try {
      const url = new URL(v);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "adminConfig:errors.socialUrl");
const checkbox = z.string().optional();

/** One schema for the settings form, used in the browser and in the action (flat form fields). */
export const siteConfigSchema = z
  .object({
    siteNameEn: required(LIMITS.siteName, "adminConfig:errors.siteNameRequired", "adminConfig:errors.siteNameTooLong"),
    siteNameZh: required(LIMITS.siteName, "adminConfig:errors.siteNameRequired", "adminConfig:errors.siteNameTooLong"),
    siteDescriptionEn: text(LIMITS.siteDescription, "adminConfig:errors.descriptionTooLong"),
    siteDescriptionZh: text(LIMITS.siteDescription, "adminConfig:errors.descriptionTooLong"),
    aboutTextEn: text(LIMITS.aboutText, "adminConfig:errors.aboutTooLong"),
    aboutTextZh: text(LIMITS.aboutText, "adminConfig:errors.aboutTooLong"),
    socialGithub: socialUrl,
    socialX: socialUrl,
    socialWeibo: socialUrl,
    socialZhihu: socialUrl,
    copyrightEn: text(LIMITS.copyright, "adminConfig:errors.copyrightTooLong"),
    copyrightZh: text(LIMITS.copyright, "adminConfig:errors.copyrightTooLong"),
    filingIcp: filingNumber,
    filingPolice: filingNumber.refine((v) => v === "" || /\d{6,}/.test(v), "adminConfig:errors.filingPolice"),
    postsPerPage: z
      .string({ error: "adminConfig:errors.postsPerPage" })
      .trim()
      .refine((v) => /^\d{1,3}$/.test(v) && Number(v) >= 1 && Number(v) <= POSTS_PER_PAGE_MAX, {
        message: "adminConfig:errors.postsPerPage",
      }),
    commentModeration: z.enum(["auto", "hold"], { error: "adminConfig:errors.moderation" }),
    moderationNotice: z.enum(["each", "daily", "off"], { error: "adminConfig:errors.moderationNotice" }),
    registrationOpen: checkbox,
    languageButtonsForEveryone: checkbox,
    footerLinks: checkbox,
    translationNotice: checkbox,
    passwordCustom: checkbox,
    passwordMinLength: z.string().trim().default(""),
    passwordLower: checkbox,
    passwordUpper: checkbox,
    passwordDigit: checkbox,
    passwordSymbol: checkbox,
    socialImage: z
      .string({ error: "adminConfig:errors.socialImage" })
      .trim()
      .min(1, "adminConfig:errors.socialImage")
      .max(2000, "adminConfig:errors.socialImage")
      .refine(isSafeUrl, "adminConfig:errors.socialImage"),
  })
  .superRefine((v, ctx) => {
    if (v.passwordCustom !== "on") return;
    const n = Number(v.passwordMinLength);
    if (!/^\d{1,3}$/.test(v.passwordMinLength) || n < PASSWORD_MIN_LENGTH_FLOOR || n > 128) {
      ctx.addIssue({ code: "custom", path: ["passwordMinLength"], message: "adminConfig:errors.passwordMinLength" });
    }
  });

export type SiteConfigForm = z.infer<typeof siteConfigSchema>;

const CLASS_FIELDS: Record<PasswordClass, "passwordLower" | "passwordUpper" | "passwordDigit" | "passwordSymbol"> = {
  lower: "passwordLower",
  upper: "passwordUpper",
  digit: "passwordDigit",
  symbol: "passwordSymbol",
};

/** The validated form as settings. */
export function formToSettings(v: SiteConfigForm): ConfigSettings {
  return {
    siteName: { en: v.siteNameEn, zh: v.siteNameZh },
    siteDescription: { en: v.siteDescriptionEn, zh: v.siteDescriptionZh },
    aboutText: { en: v.aboutTextEn, zh: v.aboutTextZh },
    socialLinks: { github: v.socialGithub, x: v.socialX, weibo: v.socialWeibo, zhihu: v.socialZhihu },
    copyright: { en: v.copyrightEn, zh: v.copyrightZh },
    filing: { icp: v.filingIcp, police: v.filingPolice },
    postsPerPage: Number(v.postsPerPage),
    commentModeration: v.commentModeration,
    moderationNotice: v.moderationNotice,
    registrationOpen: v.registrationOpen === "on",
    languageButtonsForEveryone: v.languageButtonsForEveryone === "on",
    footerLinks: v.footerLinks === "on",
    translationNotice: v.translationNotice === "on",
    passwordPolicy:
      v.passwordCustom === "on"
        ? {
            minLength: Number(v.passwordMinLength),
            requiredClasses: PASSWORD_CLASSES.filter((c) => v[CLASS_FIELDS[c]] === "on"),
          }
        : null,
    socialImage: v.socialImage,
  };
}

/** The form's field values for these settings; `effective` fills the password fields while there is no override. */
export function settingsToForm(
  s: ConfigSettings,
  effective: { minLength: number; requiredClasses: readonly PasswordClass[] },
): Record<string, string> {
  const policy = s.passwordPolicy ?? effective;
  const on = (b: boolean) => (b ? "on" : "");
  return {
    siteNameEn: s.siteName.en,
    siteNameZh: s.siteName.zh,
    siteDescriptionEn: s.siteDescription.en,
    siteDescriptionZh: s.siteDescription.zh,
    aboutTextEn: s.aboutText.en,
    aboutTextZh: s.aboutText.zh,
    socialGithub: s.socialLinks.github,
    socialX: s.socialLinks.x,
    socialWeibo: s.socialLinks.weibo,
    socialZhihu: s.socialLinks.zhihu,
    copyrightEn: s.copyright.en,
    copyrightZh: s.copyright.zh,
    filingIcp: s.filing.icp,
    filingPolice: s.filing.police,
    postsPerPage: String(s.postsPerPage),
    commentModeration: s.commentModeration,
    moderationNotice: s.moderationNotice,
    registrationOpen: on(s.registrationOpen),
    languageButtonsForEveryone: on(s.languageButtonsForEveryone),
    footerLinks: on(s.footerLinks),
    translationNotice: on(s.translationNotice),
    passwordCustom: on(s.passwordPolicy !== null),
    passwordMinLength: String(policy.minLength),
    passwordLower: on(policy.requiredClasses.includes("lower")),
    passwordUpper: on(policy.requiredClasses.includes("upper")),
    passwordDigit: on(policy.requiredClasses.includes("digit")),
    passwordSymbol: on(policy.requiredClasses.includes("symbol")),
    socialImage: s.socialImage,
  };
}

/**
 * The keys whose values differ, down to each language ("siteName.en",
 * "copyright.zh"): what the audit entry lists, without the values.
 */
export function changedKeys(before: unknown, after: unknown, prefix = ""): string[] {
  const isObject = (x: unknown): x is Record<string, unknown> =>
    typeof x === "object" && x !== null && !Array.isArray(x);
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((k) => changedKeys(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix];
}
