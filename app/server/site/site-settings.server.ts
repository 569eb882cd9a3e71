import { z } from "zod";
import { HEX_COLOUR } from "../../lib/brand.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { MEDIA_URL_RE } from "../../lib/media.ts";
import { PASSWORD_CLASSES } from "../../lib/schemas/auth.ts";
import { HANDLE_PATTERN } from "../../lib/schemas/fediverse.ts";
import { isSafeUrl } from "../../lib/schemas/swaper.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { reusableQuery } from "../db/reusable-query.server.ts";

const perLocale = (max: number) => z.object({ en: z.string().max(max), zh: z.string().max(max) });
const optionalUrl = z.union([z.literal(""), z.url({ protocol: /^https?$/ }).max(500)]);

export const SOCIAL_NETWORKS = ["github", "x", "weibo", "zhihu"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** An upload of this site ("/media/{id}/{file}"), or "" for none. */
const uploadPath = z.union([z.literal(""), z.string().regex(MEDIA_URL_RE)]);
/** The longest description of the home cover, per language. */
const HOME_COVER_ALT_MAX = 200;

/** Every setting, its shape, and the default a fresh blog starts with. */
const settingSchemas = {
  siteName: perLocale(100),
  siteDescription: perLocale(300),
  aboutText: perLocale(600),
  socialLinks: z.object({ github: optionalUrl, x: optionalUrl, weibo: optionalUrl, zhihu: optionalUrl }),
  /** Empty: "© {year} {site name}". */
  copyright: perLocale(200),
  /** Mainland China's filing numbers, shown in the footer when set: ICP (MIIT) and public security (MPS). */
  filing: z.object({ icp: z.string().max(60), police: z.string().max(60) }),
  postsPerPage: z.number().int().min(1).max(100),
  /** Spec: the English/中文 buttons are for admins; this opens them to every reader. */
  languageButtonsForEveryone: z.boolean(),
  /** Tell readers, on a post page, when its version was written before the other language's last change (issue 47). */
  translationNotice: z.boolean(),
  /** "auto": new comments are approved at once; "hold": they wait (pending) for an admin. */
  commentModeration: z.enum(["auto", "hold"]),
  /** Mail to the admins about comments waiting: one per comment, a daily digest, or none. */
  moderationNotice: z.enum(["each", "daily", "off"]),
  /** Whether the footer shows the first enabled friend links (all of them are on /links). */
  footerLinks: z.boolean(),
  /** Closed: no new accounts (e-mail or OAuth); existing ones still sign in. */
  registrationOpen: z.boolean(),
  /** The og:image of every page without its own: an http(s) URL or a path on this site. */
  socialImage: z.string().max(2000).refine(isSafeUrl),
  /** Overrides PASSWORD_MIN_LENGTH / PASSWORD_REQUIRE; null: the environment's policy. */
  passwordPolicy: z
    .object({
      minLength: z.number().int().min(6).max(128),
      requiredClasses: z.array(z.enum(PASSWORD_CLASSES)).max(PASSWORD_CLASSES.length),
    })
    .nullable(),
  /**
   * The Fediverse accounts (issue 22): the admin switch (FEDERATION in the environment
   * overrides it) and each language's handle, the part before "@host".
   */
  /**
   * The brand (issue 48, admin/brand): the accent colour ("#rrggbb"; "" keeps the blue; one
   * that fails 4.5:1 on the light page is refused by the form, lib/brand.ts), the logo and the
   * site icon (uploads; "" for none).
   */
  brand: z.object({
    accent: z.union([z.literal(""), z.string().regex(HEX_COLOUR)]),
    logo: uploadPath,
    /** The logo's size in pixels, kept so pages can reserve its space (0 with no logo). */
    logoWidth: z.number().int().min(0).max(100_000),
    logoHeight: z.number().int().min(0).max(100_000),
    icon: uploadPath,
  }),
  /**
   * How reading pages look (issue 48, admin/brand): the post body's typeface (the site's sans,
   * or a serif), a larger reading size, whether readers see a post's view count, the home layout.
   */
  appearance: z.object({
    typeface: z.enum(["sans", "serif"]),
    largeText: z.boolean(),
    viewCounts: z.boolean(),
    /** The home page's posts: the list, a grid of cards, or the newest as a hero above the list. */
    homeLayout: z.enum(["list", "grid", "hero"]),
  }),
  /**
   * The home page's cover (issue 48, admin/brand): an upload shown above the list in every
   * layout ("" for none), and its description per language ("" says the site's name).
   */
  homeCover: z.object({
    src: uploadPath,
    alt: z.object({ en: z.string().max(HOME_COVER_ALT_MAX), zh: z.string().max(HOME_COVER_ALT_MAX) }),
  }),
  fediverse: z.object({
    enabled: z.boolean(),
    handles: z.object({
      en: z.string().regex(HANDLE_PATTERN),
      zh: z.string().regex(HANDLE_PATTERN),
    }),
  }),
};

export type SiteSettings = { [K in keyof typeof settingSchemas]: z.infer<(typeof settingSchemas)[K]> };
export type SettingKey = keyof SiteSettings;
export type CommentModeration = SiteSettings["commentModeration"];
export type ModerationNotice = SiteSettings["moderationNotice"];

export const DEFAULT_SETTINGS: SiteSettings = {
  siteName: { en: "Inkwell", zh: "墨水博客" },
  siteDescription: { en: "A personal blog in English and Chinese.", zh: "一个中英双语的个人博客。" },
  aboutText: {
    en: "Notes on software, writing and life, in English and Chinese.",
    zh: "关于软件、写作和生活的笔记，中英双语。",
  },
  socialLinks: { github: "", x: "", weibo: "", zhihu: "" },
  copyright: { en: "", zh: "" },
  filing: { icp: "", police: "" },
  postsPerPage: 10,
  languageButtonsForEveryone: false,
  translationNotice: false,
  commentModeration: "auto",
  moderationNotice: "each",
  footerLinks: false,
  registrationOpen: true,
  socialImage: "/social.jpg",
  passwordPolicy: null,
  brand: { accent: "", logo: "", logoWidth: 0, logoHeight: 0, icon: "" },
  appearance: { typeface: "sans", largeText: false, viewCounts: false, homeLayout: "list" },
  homeCover: { src: "", alt: { en: "", zh: "" } },
  fediverse: { enabled: false, handles: { en: "blog-en", zh: "blog" } },
};

/** All settings: the stored ones over the defaults; a stored value that no longer fits is ignored. */
export async function getSiteSettings(db: DB): Promise<SiteSettings> {
  return parseSettingRows(await readSettingRows(db));
}

type SettingRow = { key: string; value: string };

/** Every page reads them: compiled once per database. */
const settingRows = reusableQuery([], (db) => db.selectFrom("siteSettings").select(["key", "value"]).orderBy("key"));

const readSettingRows = (db: DB): Promise<SettingRow[]> => settingRows.execute(db, {});

function parseSettingRows(rows: readonly SettingRow[]): SiteSettings {
  const settings: SiteSettings = structuredClone(DEFAULT_SETTINGS);
  const target = settings as Record<SettingKey, unknown>;
  for (const row of rows) {
    if (!(row.key in settingSchemas)) continue;
    const key = row.key as SettingKey;
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.value);
    } catch {
      continue;
    }
    const result = settingSchemas[key].safeParse(parsed);
    if (result.success) target[key] = result.data;
  }
  return settings;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The stored rows the last shared settings were parsed from, per database. */
const shared = new WeakMap<DB, { stamp: string; settings: Readonly<SiteSettings> }>();

/**
 * The site settings for rendering pages, shared by every request while the stored rows
 * are the same: the rows are still read each time (a few dozen short rows; any writer,
 * any instance, the CLI or a test writing the table shows at once), but parsed, validated
 * and copied from the defaults only when their text changed. Deeply frozen, since every
 * request gets the same object: a caller that changed it would throw.
 */
export async function getSharedSiteSettings(db: DB): Promise<Readonly<SiteSettings>> {
  const rows = await readSettingRows(db);
  let stamp = "";
  for (const row of rows) stamp += `${row.key}\u0000${row.value}\u0000`;
  const kept = shared.get(db);
  if (kept && kept.stamp === stamp) return kept.settings;
  const settings = deepFreeze(parseSettingRows(rows));
  shared.set(db, { stamp, settings });
  return settings;
}

/** One setting (the stored one over the default), without reading the rest. */
export async function getSiteSetting<K extends SettingKey>(db: DB, key: K): Promise<SiteSettings[K]> {
  const row = await db.selectFrom("siteSettings").select("value").where("key", "=", key).executeTakeFirst();
  if (row) {
    try {
      const result = settingSchemas[key].safeParse(JSON.parse(row.value));
      if (result.success) return result.data as SiteSettings[K];
    } catch {}
  }
  return structuredClone(DEFAULT_SETTINGS[key]);
}

export class InvalidSettingError extends Error {
  override name = "InvalidSettingError";
  readonly key: string;
  constructor(key: string, message: string) {
    super(`${key}: ${message}`);
    this.key = key;
  }
}

/**
 * Validates and stores the given settings in one transaction (all or nothing).
 * Given a transaction, it writes in that one (so an audit entry can share it).
 */
export async function updateSiteSettings(db: DB, changes: Partial<SiteSettings>): Promise<void> {
  const entries: Array<[SettingKey, string]> = [];
  for (const [key, value] of Object.entries(changes)) {
    if (!(key in settingSchemas)) throw new InvalidSettingError(key, "unknown setting");
    const result = settingSchemas[key as SettingKey].safeParse(value);
    if (!result.success) throw new InvalidSettingError(key, result.error.issues[0]?.message ?? "invalid");
    entries.push([key as SettingKey, JSON.stringify(result.data)]);
  }
  const now = nowIso();
  const write = async (trx: DB) => {
    for (const [key, value] of entries) {
      await trx
        .insertInto("siteSettings")
        .values({ key, value, createdAt: now, updatedAt: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value, updatedAt: now }))
        .execute();
    }
  };
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
}

/** The copyright line: the configured one, or "© {year} {site name}". */
export function copyrightLine(settings: SiteSettings, locale: Locale, year: number): string {
  const custom = settings.copyright[locale].trim();
  return custom || `© ${year} ${settings.siteName[locale]}`;
}
