import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import { newId } from "../platform/ids.server.ts";

// About, Contact and Privacy as pages (docs/decisions/035-pages-and-menus.md). A new database
// gets them from its migrations; a backup or an export loaded into one goes through here: an
// export made before pages existed carries the texts in the old "pages" setting, and a load
// that replaced every table must leave the three pages in place.
// db/migrations/20261129T050100_fill_system_pages.ts repeats this fill on purpose: a migration
// is frozen once merged and never imports app code (its own top comment says so), so it keeps
// the copy of the day; a change here is not carried into it.

type Key = "about" | "contact" | "privacy";
const KEYS: readonly Key[] = ["about", "contact", "privacy"];

/** The titles the three pages are made with (the site's strings when they became pages). */
const TITLES: Record<Key, { en: string; zh: string }> = {
  about: { en: "About", zh: "关于" },
  contact: { en: "Contact", zh: "联系" },
  privacy: { en: "Privacy policy", zh: "隐私政策" },
};

/** The texts of a site that never changed them. */
const DEFAULT_TEXTS: Record<Key, { en: string; zh: string }> = {
  about: {
    en: "This is a personal blog, written in English and Chinese.\n\nThe owner has not written an About page yet: admins can change this text in the admin area.",
    zh: "这是一个用中文和英文写作的个人博客。\n\n博主还没有写关于页面：管理员可以在管理面板中修改这段文字。",
  },
  contact: {
    en: "Questions, corrections or a friendly hello: write below and the author will get your message by e-mail.",
    zh: "有问题、发现错误，或者只是想打个招呼：请在下面留言，作者会通过邮件收到你的消息。",
  },
  privacy: {
    en: [
      "## What this blog stores",
      "",
      "- **Reading** needs no account. The blog sets no tracking cookies and loads nothing from other sites.",
      "- **Reading statistics** are counted on this server, without cookies: the day, the page, its language, the site a link came from (its name only), and the country if the hosting passes it. To count each reader once a day, your address and browser are mixed with a random value that changes every day and is deleted afterwards; the address itself is never stored. Bots are not counted.",
      "- **Your language and theme**: a `locale` cookie (one year) and a `theme` entry in your browser's local storage.",
      "- **Accounts**: your e-mail address, a name, a hash of your password (never the password itself), and the sessions you are signed in with (address and browser). You can delete your account at any time on your account page.",
      "- **Comments** you write, with your account.",
      "- **Subscriptions**: your e-mail address and whether you confirmed it; every mail has an unsubscribe link.",
      "- **Contact messages**: what you send through the contact form, to answer you.",
      "",
      "Nothing is sold or shared. Server logs keep addresses for a short time to stop abuse.",
    ].join("\n"),
    zh: [
      "## 本博客保存哪些信息",
      "",
      "- **阅读**无需账号。本博客不设置跟踪 Cookie，也不从其他网站加载任何内容。",
      "- **阅读统计**在本站服务器上进行，不使用 Cookie：记录日期、页面、页面语言、链接来自哪个网站（只记网站名），以及托管服务提供时的国家或地区。为了每天只计一次访客，你的地址和浏览器会与一个每天更换、过后即删除的随机值一起做哈希；地址本身从不保存。爬虫不计入。",
      "- **语言和主题**：一个 `locale` Cookie（一年），以及浏览器本地存储中的 `theme` 项。",
      "- **账号**：你的邮箱地址、名字、密码的哈希值（不会保存密码本身），以及你登录的会话（地址和浏览器）。你可以随时在账号页面删除账号。",
      "- **评论**：你写的评论，与你的账号关联。",
      "- **订阅**：你的邮箱地址以及是否已确认；每封邮件都带有退订链接。",
      "- **联系消息**：你通过联系表单发送的内容，用于回复你。",
      "",
      "我们不会出售或分享任何信息。服务器日志会短期保存访问地址，用于防止滥用。",
    ].join("\n"),
  },
};

/** A text of the old "pages" setting, when it holds one. */
function legacyText(stored: unknown, key: Key, locale: "en" | "zh"): string | null {
  if (!stored || typeof stored !== "object") return null;
  const page = (stored as Record<string, unknown>)[key];
  if (!page || typeof page !== "object") return null;
  const text = (page as Record<string, unknown>)[locale];
  return typeof text === "string" ? text : null;
}

/**
 * Makes sure the three pages exist after a load: a missing one is made from the old setting's
 * text (an export from before pages) or the default; one that was never edited here (version
 * 1) takes the old setting's text when the load brought one.
 */
export async function ensureSystemPages(db: DB, legacySetting: string | null): Promise<void> {
  let stored: unknown = null;
  try {
    stored = legacySetting ? JSON.parse(legacySetting) : null;
  } catch {
    stored = null;
  }
  const now = nowIso();
  for (const key of KEYS) {
    const en = legacyText(stored, key, "en");
    const zh = legacyText(stored, key, "zh");
    const row = await db.selectFrom("pages").select(["id", "version"]).where("systemKey", "=", key).executeTakeFirst();
    if (!row) {
      // A page of the owner's may hold the address already (a load from elsewhere): it wins.
      const taken = await db.selectFrom("pages").select("id").where("slug", "=", key).executeTakeFirst();
      if (taken) continue;
      await db
        .insertInto("pages")
        .values({
          id: newId(),
          slug: key,
          systemKey: key,
          status: "published",
          titleEn: TITLES[key].en,
          titleZh: TITLES[key].zh,
          bodyEn: en ?? DEFAULT_TEXTS[key].en,
          bodyZh: zh ?? DEFAULT_TEXTS[key].zh,
          authorId: null,
          publishedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    } else if (Number(row.version) === 1 && (en !== null || zh !== null)) {
      await db
        .updateTable("pages")
        .set({ ...(en !== null ? { bodyEn: en } : {}), ...(zh !== null ? { bodyZh: zh } : {}), updatedAt: now })
        .where("id", "=", row.id)
        .execute();
    }
  }
}

/**
 * Pages that count as content when a load asks whether a database is empty: the owner's own,
 * and About, Contact or Privacy once edited. The three as the migrations made them do not.
 */
export async function countOwnPages(db: DB): Promise<number> {
  const row = await db
    .selectFrom("pages")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where((eb) => eb.or([eb("systemKey", "is", null), eb("version", ">", 1)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Before a load brings its own pages into a database that has only the made ones: they go. */
export async function dropMadeSystemPages(db: DB): Promise<void> {
  await db.deleteFrom("pages").where("systemKey", "is not", null).where("version", "=", 1).execute();
}
