import { describe, expect, it } from "vitest";
import { validate } from "../forms.ts";
import { type ConfigSettings, changedKeys, formToSettings, settingsToForm, siteConfigSchema } from "./site-config.ts";

const SETTINGS: ConfigSettings = {
  siteName: { en: "Inkwell", zh: "墨水博客" },
  siteDescription: { en: "A blog.", zh: "一个博客。" },
  aboutText: { en: "About.", zh: "关于。" },
  socialLinks: { github: "https://github.com/me", x: "", weibo: "", zhihu: "" },
  copyright: { en: "", zh: "" },
  filing: { icp: "京ICP备12345678号-1", police: "" },
  postsPerPage: 10,
  languageButtonsForEveryone: false,
  footerLinks: true,
  translationNotice: true,
  commentModeration: "auto",
  moderationNotice: "daily",
  registrationOpen: true,
  socialImage: "/social.jpg",
  passwordPolicy: null,
};
const ENV_POLICY = { minLength: 8, requiredClasses: [] };
const form = (overrides: Record<string, string> = {}) => ({ ...settingsToForm(SETTINGS, ENV_POLICY), ...overrides });

describe("siteConfigSchema", () => {
  it("turns the form of the settings back into the same settings", () => {
    const parsed = validate(siteConfigSchema, form());
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(formToSettings(parsed.data)).toEqual(SETTINGS);
  });

  it("reads unchecked boxes (absent from the form) as off", () => {
    const values = form({ registrationOpen: "on" });
    delete (values as Record<string, string>).registrationOpen;
    const parsed = validate(siteConfigSchema, values);
    expect(parsed.ok && formToSettings(parsed.data).registrationOpen).toBe(false);
  });

  it("takes filing numbers of one short line, and a public security number with its digits", () => {
    const ok = validate(siteConfigSchema, form({ filingPolice: " 京公网安备 11010502030143号 " }));
    expect(ok.ok && formToSettings(ok.data).filing).toEqual({
      icp: "京ICP备12345678号-1",
      police: "京公网安备 11010502030143号",
    });
    const bad = validate(
      siteConfigSchema,
      form({ filingIcp: `京ICP备${"1".repeat(60)}号`, filingPolice: "京公网安备号" }),
    );
    expect(bad.ok ? null : bad.errors).toEqual({
      filingIcp: "adminConfig:errors.filing",
      filingPolice: "adminConfig:errors.filingPolice",
    });
    const markup = validate(siteConfigSchema, form({ filingIcp: "<b>京ICP备1号</b>" }));
    expect(markup.ok ? null : markup.errors.filingIcp).toBe("adminConfig:errors.filing");
  });

  it("requires a site name in each language", () => {
    const parsed = validate(siteConfigSchema, form({ siteNameEn: "  ", siteNameZh: "" }));
    expect(parsed).toEqual({
      ok: false,
      errors: { siteNameEn: "adminConfig:errors.siteNameRequired", siteNameZh: "adminConfig:errors.siteNameRequired" },
    });
  });

  it.each(["0", "51", "2.5", "-1", "ten", ""])("refuses %j posts per page", (value) => {
    const parsed = validate(siteConfigSchema, form({ postsPerPage: value }));
    expect(parsed.ok ? null : parsed.errors.postsPerPage).toBe("adminConfig:errors.postsPerPage");
  });

  it.each(["1", "50"])("accepts %s posts per page", (value) => {
    const parsed = validate(siteConfigSchema, form({ postsPerPage: value }));
    expect(parsed.ok && formToSettings(parsed.data).postsPerPage).toBe(Number(value));
  });

  it.each(["javascript:alert(1)", "ftp://example.com/", "//evil.example", "/relative", "data:text/html,x"])(
    "refuses the social link %j",
    (value) => {
      const parsed = validate(siteConfigSchema, form({ socialX: value }));
      expect(parsed.ok ? null : parsed.errors.socialX).toBe("adminConfig:errors.socialUrl");
    },
  );

  it("accepts http(s) social links and empty ones", () => {
    const parsed = validate(
      siteConfigSchema,
      form({ socialGithub: "", socialX: "http://x.com/me", socialWeibo: " https://weibo.com/me " }),
    );
    expect(parsed.ok && formToSettings(parsed.data).socialLinks).toEqual({
      github: "",
      x: "http://x.com/me",
      weibo: "https://weibo.com/me",
      zhihu: "",
    });
  });

  it.each(["javascript:alert(1)", "//evil.example/x.jpg", "social.jpg", ""])("refuses the social image %j", (value) => {
    const parsed = validate(siteConfigSchema, form({ socialImage: value }));
    expect(parsed.ok ? null : parsed.errors.socialImage).toBe("adminConfig:errors.socialImage");
  });

  it("accepts an https or site-relative social image", () => {
    for (const value of ["https://cdn.example/og.png", "/uploads/og.png"]) {
      const parsed = validate(siteConfigSchema, form({ socialImage: value }));
      expect(parsed.ok && formToSettings(parsed.data).socialImage).toBe(value);
    }
  });

  it("refuses an unknown moderation mode", () => {
    const parsed = validate(siteConfigSchema, form({ commentModeration: "never" }));
    expect(parsed.ok ? null : parsed.errors.commentModeration).toBe("adminConfig:errors.moderation");
  });

  it("keeps the environment's password policy unless the override is on", () => {
    const parsed = validate(siteConfigSchema, form({ passwordMinLength: "3" }));
    expect(parsed.ok && formToSettings(parsed.data).passwordPolicy).toBeNull();
  });

  it("stores an override of the password policy, never under 6 characters", () => {
    for (const value of ["5", "129", "x", ""]) {
      const parsed = validate(siteConfigSchema, form({ passwordCustom: "on", passwordMinLength: value }));
      expect(parsed.ok ? null : parsed.errors.passwordMinLength).toBe("adminConfig:errors.passwordMinLength");
    }
    const parsed = validate(
      siteConfigSchema,
      form({ passwordCustom: "on", passwordMinLength: "12", passwordSymbol: "on", passwordUpper: "on" }),
    );
    expect(parsed.ok && formToSettings(parsed.data).passwordPolicy).toEqual({
      minLength: 12,
      requiredClasses: ["upper", "symbol"],
    });
  });

  it("shows the environment's policy in the form while there is no override", () => {
    const values = settingsToForm(SETTINGS, { minLength: 10, requiredClasses: ["digit"] });
    expect(values).toMatchObject({
      passwordCustom: "",
      passwordMinLength: "10",
      passwordDigit: "on",
      passwordLower: "",
    });
  });
});

describe("changedKeys", () => {
  it("names the changed leaves, not their values", () => {
    const next: ConfigSettings = {
      ...SETTINGS,
      siteName: { en: "New", zh: SETTINGS.siteName.zh },
      copyright: { ...SETTINGS.copyright, zh: "版权所有" },
      passwordPolicy: { minLength: 10, requiredClasses: [] },
    };
    expect(changedKeys(SETTINGS, next)).toEqual(["siteName.en", "copyright.zh", "passwordPolicy"]);
    expect(changedKeys(SETTINGS, structuredClone(SETTINGS))).toEqual([]);
  });
});
