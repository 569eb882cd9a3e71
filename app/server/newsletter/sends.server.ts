import { formatDate } from "../../lib/format.ts";
import { versionFor } from "../../lib/writing/publish-reach.ts";
import type { DB } from "../db/db.server.ts";
import { nowIso } from "../db/db.server.ts";
import type { Locale, PostStatus } from "../db/schema.server.ts";
import type { Mailer } from "../mail/message.server.ts";
import { fillTemplate, type MailTemplate, mailTemplate } from "../mail/mime.server.ts";
import { fromWithName, mailboxOf, siteNameIn } from "../mail/site-name.server.ts";
import type { Envelope } from "../mail/transport.server.ts";
import { newId } from "../platform/ids.server.ts";
import { idOfSignedToken, signedIdMatches, signId } from "../platform/signed-id.server.ts";
import { getSiteSettings } from "../site/site-settings.server.ts";
import { escapeHtml, PLACEHOLDER, personalize, type RenderedNewsletter, renderNewsletter } from "./mail-html.server.ts";
import { newsletterStrings } from "./strings.server.ts";

// A post mailed to its subscribers. Publishing a post whose "email subscribers" box
// was ticked writes one newsletterSends row in the same transaction; the mail
// worker then queues the recipients in batches (each a transaction, resumable from
// `cursor`), and renders each reader's mail from the send's stored mail as it goes
// out. Every mail's key is `newsletter:{postId}:{subscriberId}`: nobody is queued
// twice for one post, however often a batch runs.

/** Subscribers queued per transaction. */
export const NEWSLETTER_BATCH = 500;

/** Permanent failures in a row after which an address is never mailed again (until it subscribes again). */
export const BOUNCE_LIMIT = 3;

export type NewsletterMails = Partial<Record<Locale, RenderedNewsletter>>;

export interface NewsletterContext {
  publicUrl: string;
  authSecret: string;
  /** The From header's address, for the List-Unsubscribe mailto. */
  mailFrom: string;
}

/**
 * Starts the newsletter of each post that has just gone live with its box ticked
 * (`posts.newsletter = 1`). Call it in the transaction that publishes them: the send
 * commits with the publication or not at all. A post is sent once, ever (unique postId).
 */
export async function startNewsletters(trx: DB, postIds: string[], createdBy: string | null, now = new Date()) {
  if (postIds.length === 0) return 0;
  const posts = await trx
    .selectFrom("posts")
    .select("id")
    .where("id", "in", postIds)
    .where("newsletter", "=", 1)
    .where("status", "=", "published")
    .where("deletedAt", "is", null)
    .execute();
  let started = 0;
  const at = nowIso(now);
  for (const post of posts) {
    const result = await trx
      .insertInto("newsletterSends")
      .values({
        id: newId(),
        postId: post.id,
        status: "preparing",
        cursor: null,
        recipients: 0,
        mails: null,
        createdBy,
        createdAt: at,
        updatedAt: at,
      })
      .onConflict((oc) => oc.column("postId").doNothing())
      .executeTakeFirst();
    started += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return started;
}

// Which version a subscriber gets: shared with the editor's publish dialog, which counts them.
export { versionFor };

const LINK_PURPOSE = "subscriber-link";

/**
 * A subscriber's link token (signed-id.server.ts), bound to their current unsubscribe
 * hash: it needs no storage and stops working when they subscribe anew (a new hash).
 */
export function subscriberLinkToken(secret: string, subscriber: { id: string; unsubscribeTokenHash: string }): string {
  return signId(secret, LINK_PURPOSE, subscriber.id, subscriber.unsubscribeTokenHash);
}

/** The subscriber id in a link token, when its signature is right for that subscriber's row. */
export async function subscriberFromLinkToken(db: DB, secret: string, token: string): Promise<string | null> {
  const id = idOfSignedToken(token);
  if (!id) return null;
  const row = await db
    .selectFrom("subscribers")
    .select(["id", "unsubscribeTokenHash"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row && signedIdMatches(secret, LINK_PURPOSE, token, row.id, row.unsubscribeTokenHash) ? row.id : null;
}

/** Whether a token is a signed link token (the other kind is a random token stored as a hash). */
export const isLinkToken = (token: string) => token.includes(".");

/**
 * The reader's links, and the List-Unsubscribe headers of RFC 2369 and RFC 8058. A
 * newsletter's links name its send, so Insights can tell which post readers left after.
 */
export function readerLinks(ctx: NewsletterContext, locale: Locale, token: string, sendId: string | null = null) {
  const from = sendId ? `&send=${encodeURIComponent(sendId)}` : "";
  const unsubscribe = `${ctx.publicUrl}/${locale}/unsubscribe?token=${encodeURIComponent(token)}${from}`;
  const mailto = `mailto:${mailboxOf(ctx.mailFrom)}?subject=${encodeURIComponent(`unsubscribe ${token}`)}`;
  return {
    unsubscribe,
    preferences: `${unsubscribe}#language`,
    headers: {
      "List-Unsubscribe": `<${unsubscribe}>, <${mailto}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/**
 * The post's mail in every language it has, as readers will get it (placeholders
 * for their own links); null when the post is in the trash or gone, or, with
 * `publishedOnly`, not live.
 */
export async function renderPostMails(
  db: DB,
  postId: string,
  publicUrl: string,
  opts: { publishedOnly?: boolean } = {},
): Promise<NewsletterMails | null> {
  const post = await db
    .selectFrom("posts")
    .select(["id", "status", "publishedAt", "deletedAt", "coverImageUrl", "coverAlt"])
    .where("id", "=", postId)
    .executeTakeFirst();
  if (!post || post.deletedAt !== null) return null;
  if (opts.publishedOnly && post.status !== "published") return null;
  return renderMailsOf(db, post, publicUrl);
}

async function renderMailsOf(
  db: DB,
  post: { id: string; publishedAt: string | null; coverImageUrl: string | null; coverAlt: string },
  publicUrl: string,
): Promise<NewsletterMails> {
  const [translations, settings] = await Promise.all([
    db
      .selectFrom("postTranslations")
      .select(["locale", "title", "summary", "bodyHtml"])
      .where("postId", "=", post.id)
      .execute(),
    getSiteSettings(db),
  ]);
  const mails: NewsletterMails = {};
  for (const tr of translations) {
    const siteName = siteNameIn(settings, tr.locale);
    mails[tr.locale] = renderNewsletter(
      {
        locale: tr.locale,
        siteName,
        title: tr.title,
        summary: tr.summary,
        coverUrl: post.coverImageUrl,
        coverAlt: post.coverAlt,
        bodyHtml: tr.bodyHtml,
        // Tagged for Insights (the server takes the tag off before the page is rendered or cached).
        postUrl: `${publicUrl}/${tr.locale}/posts/detail/${encodeURIComponent(post.id)}?utm_source=newsletter`,
        dateLine: post.publishedAt ? formatDate(post.publishedAt, tr.locale) : "",
        strings: newsletterStrings(tr.locale, siteName),
        // The brand (admin/brand): the logo above the site's name, the accent on the button.
        logo:
          settings.brand.logo && settings.brand.logoWidth > 0
            ? { url: settings.brand.logo, width: settings.brand.logoWidth, height: settings.brand.logoHeight }
            : null,
        accent: settings.brand.accent || null,
      },
      publicUrl,
    );
  }
  return mails;
}

async function cancelSend(db: DB, sendId: string) {
  await db
    .updateTable("newsletterSends")
    .set({ status: "cancelled", updatedAt: nowIso() })
    .where("id", "=", sendId)
    .execute();
}

/**
 * Queues the next batch of one send's recipients (the oldest send still
 * preparing), in one transaction that also moves its cursor. Returns how many
 * mails it queued, or null when no send was preparing. The first batch renders
 * and stores the mail; a post that went away first cancels the send.
 */
export async function prepareNextBatch(
  db: DB,
  ctx: Pick<NewsletterContext, "publicUrl">,
  batchSize = NEWSLETTER_BATCH,
): Promise<number | null> {
  const send = await db
    .selectFrom("newsletterSends")
    .select(["id", "postId", "cursor", "mails"])
    .where("status", "=", "preparing")
    .orderBy("createdAt")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  if (!send) return null;
  let mails: NewsletterMails | null;
  if (send.mails) mails = JSON.parse(send.mails) as NewsletterMails;
  else {
    mails = await renderPostMails(db, send.postId, ctx.publicUrl, { publishedOnly: true });
    if (!mails || Object.keys(mails).length === 0) {
      await cancelSend(db, send.id);
      return 0;
    }
    await db
      .updateTable("newsletterSends")
      .set({ mails: JSON.stringify(mails), updatedAt: nowIso() })
      .where("id", "=", send.id)
      .where("mails", "is", null)
      .execute();
  }
  const available = (["en", "zh"] as const).filter((l) => mails?.[l]);
  return db
    .transaction()
    .execute(async (trx) => {
      let query = trx
        .selectFrom("subscribers")
        .select(["id", "email", "locale", "languages"])
        .where("status", "=", "confirmed")
        .where("bouncedAt", "is", null)
        .orderBy("id")
        .limit(batchSize);
      if (send.cursor !== null) query = query.where("id", ">", send.cursor);
      const subscribers = await query.execute();
      const at = nowIso();
      const rows = subscribers.flatMap((s) => {
        const locale = versionFor(s, available);
        const mail = locale ? mails?.[locale] : undefined;
        if (!locale || !mail) return [];
        return [
          {
            id: newId(),
            key: `newsletter:${send.postId}:${s.id}`,
            kind: "newsletter",
            recipient: s.email,
            subject: mail.subject,
            // Rendered for the reader when it goes out (their own links).
            text: "",
            html: null,
            headers: null,
            status: "queued" as const,
            nextAttemptAt: at,
            createdAt: at,
            sendId: send.id,
            subscriberId: s.id,
            locale,
          },
        ];
      });
      let queued = 0;
      for (let i = 0; i < rows.length; i += 200) {
        const result = await trx
          .insertInto("mailOutbox")
          .values(rows.slice(i, i + 200))
          .onConflict((oc) => oc.column("key").doNothing())
          .executeTakeFirst();
        queued += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      const last = subscribers.at(-1)?.id ?? send.cursor;
      // Moves only from the cursor this batch started at: a second runner's batch changes nothing.
      let update = trx
        .updateTable("newsletterSends")
        .set((eb) => ({
          cursor: last,
          recipients: eb("recipients", "+", queued),
          status: subscribers.length < batchSize ? "sending" : "preparing",
          updatedAt: at,
        }))
        .where("id", "=", send.id)
        .where("status", "=", "preparing");
      update = send.cursor === null ? update.where("cursor", "is", null) : update.where("cursor", "=", send.cursor);
      const moved = await update.executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) throw new StaleBatch();
      return queued;
    })
    .catch((error: unknown) => {
      if (error instanceof StaleBatch) return 0;
      throw error;
    });
}

class StaleBatch extends Error {}

/** A send's stored mails, kept per process (they never change once stored). */
const mailsCache = new Map<string, NewsletterMails>();

async function storedMails(db: DB, sendId: string): Promise<NewsletterMails | null> {
  const cached = mailsCache.get(sendId);
  if (cached) return cached;
  const row = await db.selectFrom("newsletterSends").select("mails").where("id", "=", sendId).executeTakeFirst();
  if (!row?.mails) return null;
  const mails = JSON.parse(row.mails) as NewsletterMails;
  if (mailsCache.size > 50) mailsCache.clear();
  mailsCache.set(sendId, mails);
  return mails;
}

/** Each send's mail per language, encoded once as a template (app/server/mail/mime.server.ts). */
const templateCache = new Map<string, MailTemplate>();

async function storedTemplate(db: DB, ctx: NewsletterContext, sendId: string, locale: Locale) {
  const key = `${sendId}:${locale}`;
  const cached = templateCache.get(key);
  if (cached) return cached;
  const mail = (await storedMails(db, sendId))?.[locale];
  if (!mail) return null;
  const template = mailTemplate({
    // The site's name in the mail's language as the sender's name (mail/site-name.server.ts).
    from: fromWithName(ctx.mailFrom, mail.fromName),
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    placeholders: [PLACEHOLDER.unsubscribe, PLACEHOLDER.preferences],
  });
  if (templateCache.size > 50) templateCache.clear();
  templateCache.set(key, template);
  return template;
}

export interface NewsletterMailRow {
  sendId: string;
  subscriberId: string | null;
  locale: Locale | null;
  /** The reader's address, for the To header. */
  recipient: string;
}

/**
 * The mail one reader gets, rendered as it goes out; null when it must not go
 * (they unsubscribed or bounced since, the send was cancelled, the post went away).
 * `hadBounces`: whether a delivery now has failures of theirs to clear.
 */
export async function composeNewsletterMail(
  db: DB,
  ctx: NewsletterContext,
  row: NewsletterMailRow,
): Promise<(Omit<Envelope, "to"> & { hadBounces: boolean }) | null> {
  if (!row.subscriberId || !row.locale) return null;
  const [send, subscriber] = await Promise.all([
    db
      .selectFrom("newsletterSends")
      .innerJoin("posts", "posts.id", "newsletterSends.postId")
      .select(["newsletterSends.status", "posts.status as postStatus", "posts.deletedAt"])
      .where("newsletterSends.id", "=", row.sendId)
      .executeTakeFirst(),
    db
      .selectFrom("subscribers")
      .select(["id", "status", "bouncedAt", "bounceCount", "unsubscribeTokenHash"])
      .where("id", "=", row.subscriberId)
      .executeTakeFirst(),
  ]);
  if (!send || send.status === "cancelled" || send.postStatus !== "published" || send.deletedAt !== null) return null;
  if (subscriber?.status !== "confirmed" || subscriber.bouncedAt !== null) return null;
  const template = await storedTemplate(db, ctx, row.sendId, row.locale);
  if (!template) return null;
  const links = readerLinks(ctx, row.locale, subscriberLinkToken(ctx.authSecret, subscriber), row.sendId);
  const text = { [PLACEHOLDER.unsubscribe]: links.unsubscribe, [PLACEHOLDER.preferences]: links.preferences };
  const html = {
    [PLACEHOLDER.unsubscribe]: escapeHtml(links.unsubscribe),
    [PLACEHOLDER.preferences]: escapeHtml(links.preferences),
  };
  return {
    subject: template.subject,
    text: "",
    raw: fillTemplate(template, row.recipient, { text, html }, links.headers),
    hadBounces: Number(subscriber.bounceCount) > 0,
  };
}

/**
 * Counts a newsletter mail's outcome against its subscriber: a permanent failure
 * adds one (the third in a row suppresses the address), a delivery clears them.
 */
export async function recordNewsletterOutcome(
  db: DB,
  subscriberId: string,
  outcome: "sent" | "failed",
  now = new Date(),
): Promise<void> {
  if (outcome === "sent") {
    await db
      .updateTable("subscribers")
      .set({ bounceCount: 0 })
      .where("id", "=", subscriberId)
      .where("bounceCount", ">", 0)
      .execute();
    return;
  }
  const at = nowIso(now);
  await db
    .updateTable("subscribers")
    .set((eb) => ({
      bounceCount: eb("bounceCount", "+", 1),
      bouncedAt: eb
        .case()
        .when("bounceCount", ">=", BOUNCE_LIMIT - 1)
        .then(eb.fn.coalesce("bouncedAt", eb.val(at)))
        .else(eb.ref("bouncedAt"))
        .end(),
      updatedAt: at,
    }))
    .where("id", "=", subscriberId)
    .execute();
}

/**
 * A test of a post's newsletter (any post of the site, a draft too) to one address,
 * the admin's own, queued like every mail. Its links lead to the unsubscribe page
 * without a token, which changes nothing. "notFound": no such post, or in the trash.
 */
export async function queueNewsletterTest(
  db: DB,
  ctx: NewsletterContext,
  mailer: Pick<Mailer, "send">,
  input: { postId: string; to: string; locale: Locale },
): Promise<"queued" | "notFound"> {
  const mails = await renderPostMails(db, input.postId, ctx.publicUrl);
  const locale = mails?.[input.locale] ? input.locale : mails?.en ? "en" : "zh";
  const mail = mails?.[locale];
  if (!mail) return "notFound";
  const page = `${ctx.publicUrl}/${locale}/unsubscribe`;
  const filled = personalize(mail, { unsubscribe: page, preferences: `${page}#language` });
  await mailer.send(
    {
      to: input.to,
      subject: `[${locale === "zh" ? "测试" : "Test"}] ${filled.subject}`,
      text: filled.text,
      html: filled.html,
      fromName: mail.fromName ?? null,
    },
    { kind: "newsletter-test" },
  );
  return "queued";
}

/** The posts an admin may send a test of: the 50 most recently changed, not in the trash. */
export async function postsForTest(
  db: DB,
  locale: Locale,
): Promise<Array<{ id: string; title: string; status: PostStatus }>> {
  const rows = await db
    .selectFrom("posts")
    .leftJoin("postTranslations as mine", (join) =>
      join.onRef("mine.postId", "=", "posts.id").on("mine.locale", "=", locale),
    )
    .leftJoin("postTranslations as other", (join) =>
      join.onRef("other.postId", "=", "posts.id").on("other.locale", "!=", locale),
    )
    .select(["posts.id", "posts.status", "mine.title as mineTitle", "other.title as otherTitle"])
    .where("posts.deletedAt", "is", null)
    .orderBy("posts.updatedAt", "desc")
    .orderBy("posts.id")
    .limit(50)
    .execute();
  return rows.map((r) => ({ id: r.id, status: r.status, title: r.mineTitle ?? r.otherTitle ?? r.id }));
}
