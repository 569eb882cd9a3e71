import { EMPTY_COUNTS, type SendCounts } from "../../lib/admin-newsletter.ts";
import type { DB } from "../db/db.server.ts";
import { type AdminPage, adminPage } from "../db/paging.server.ts";
import { type CountValue, countRows } from "../db/query.server.ts";
import type { MailStatus, NewsletterSendStatus } from "../db/schema.server.ts";

// What the admin's newsletter page reads: who would get the next send, each send's
// progress from its outbox mails, and a send's failures. Sending itself lives in
// server/newsletter; nothing here writes.

/** The readers a send would go to now, by language, and those who would not. */
export interface NewsletterAudience {
  /** Confirmed and not suppressed. */
  confirmed: number;
  en: number;
  zh: number;
  both: number;
  /** Confirmed but suppressed after three permanent failures. */
  bounced: number;
  /** Waiting for their confirmation link. */
  pending: number;
}

/** The audience, from one grouped query over the subscribers. */
export async function newsletterAudience(db: DB): Promise<NewsletterAudience> {
  const rows = await db
    .selectFrom("subscribers")
    .select((eb) => [
      "status",
      "languages",
      eb.fn.countAll<CountValue>().as("n"),
      eb.fn
        .sum<CountValue>(eb.case().when("bouncedAt", "is not", null).then(eb.lit(1)).else(eb.lit(0)).end())
        .as("bounced"),
    ])
    .where("status", "in", ["confirmed", "pending"])
    .groupBy(["status", "languages"])
    .execute();
  const audience: NewsletterAudience = { confirmed: 0, en: 0, zh: 0, both: 0, bounced: 0, pending: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    if (row.status === "pending") {
      audience.pending += n;
      continue;
    }
    const bounced = Number(row.bounced ?? 0);
    audience.bounced += bounced;
    audience.confirmed += n - bounced;
    audience[row.languages] += n - bounced;
  }
  return audience;
}

/** One send as the admin sees it. */
export interface AdminSend {
  id: string;
  postId: string;
  /** The post's titles; both null when the post is gone. */
  titles: { en: string | null; zh: string | null };
  status: NewsletterSendStatus;
  /** Outbox mails queued so far. */
  recipients: number;
  createdAt: string;
  updatedAt: string;
  counts: SendCounts;
}

function sendsWithTitles(db: DB) {
  return db
    .selectFrom("newsletterSends as ns")
    .leftJoin("postTranslations as te", (join) => join.onRef("te.postId", "=", "ns.postId").on("te.locale", "=", "en"))
    .leftJoin("postTranslations as tz", (join) => join.onRef("tz.postId", "=", "ns.postId").on("tz.locale", "=", "zh"))
    .select([
      "ns.id",
      "ns.postId",
      "ns.status",
      "ns.recipients",
      "ns.createdAt",
      "ns.updatedAt",
      "te.title as titleEn",
      "tz.title as titleZh",
    ]);
}

type SendRow = Awaited<ReturnType<ReturnType<typeof sendsWithTitles>["execute"]>>[number];

function toAdminSend(row: SendRow, counts: SendCounts | undefined): AdminSend {
  return {
    id: row.id,
    postId: row.postId,
    titles: { en: row.titleEn, zh: row.titleZh },
    status: row.status,
    recipients: Number(row.recipients),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    counts: counts ?? { ...EMPTY_COUNTS },
  };
}

const COUNTED: readonly MailStatus[] = ["queued", "sent", "failed", "cancelled"];

/** Each send's mails by state, in one grouped query (the index on sendId, status answers it). */
export async function sendCounts(db: DB, sendIds: readonly string[]): Promise<Map<string, SendCounts>> {
  const counts = new Map<string, SendCounts>();
  if (sendIds.length === 0) return counts;
  const rows = await db
    .selectFrom("mailOutbox")
    .select((eb) => ["sendId", "status", eb.fn.countAll<CountValue>().as("n")])
    .where("sendId", "in", [...sendIds])
    .groupBy(["sendId", "status"])
    .execute();
  for (const row of rows) {
    if (row.sendId === null || !COUNTED.includes(row.status)) continue;
    const entry = counts.get(row.sendId) ?? { ...EMPTY_COUNTS };
    entry[row.status] = Number(row.n);
    counts.set(row.sendId, entry);
  }
  return counts;
}

/** The ids of the sends with at least one mail that failed for good (a subquery). */
function sendIdsWithFailures(db: DB) {
  return db
    .selectFrom("mailOutbox")
    .select("sendId")
    .where("status", "=", "failed")
    .where("sendId", "is not", null)
    .$narrowType<{ sendId: string }>();
}

/** How many sends have failed mails: the dashboard's count of the list's "failed" filter. */
export function countSendsWithFailures(db: DB): Promise<number> {
  return countRows(db.selectFrom("newsletterSends as ns").where("ns.id", "in", sendIdsWithFailures(db)));
}

/**
 * A page of sends, newest first, each with its counts: two queries whatever the page size.
 * `failedOnly`: only the sends with at least one failed mail.
 */
export async function listSendsForAdmin(
  db: DB,
  opts: { page: number; pageSize: number; failedOnly?: boolean },
): Promise<AdminPage<AdminSend>> {
  const total = opts.failedOnly ? await countSendsWithFailures(db) : await countRows(db.selectFrom("newsletterSends"));
  const page = await adminPage(total, opts, (limit, offset) => {
    const rows = opts.failedOnly
      ? sendsWithTitles(db).where("ns.id", "in", sendIdsWithFailures(db))
      : sendsWithTitles(db);
    return rows.orderBy("ns.createdAt", "desc").orderBy("ns.id", "desc").limit(limit).offset(offset).execute();
  });
  const counts = await sendCounts(
    db,
    page.items.map((row) => row.id),
  );
  return { ...page, items: page.items.map((row) => toAdminSend(row, counts.get(row.id))) };
}

/** One send with its counts; null when there is none with this id. */
export async function getSendForAdmin(db: DB, id: string): Promise<AdminSend | null> {
  const row = await sendsWithTitles(db).where("ns.id", "=", id).executeTakeFirst();
  if (!row) return null;
  const counts = await sendCounts(db, [id]);
  return toAdminSend(row, counts.get(id));
}

/** A mail of a send that could not be delivered. */
export interface FailedMail {
  id: string;
  recipient: string;
  /** The mail server's reply. */
  lastError: string | null;
  attempts: number;
}

/** A send's failed mails, by recipient. */
export async function failedMailsForSend(
  db: DB,
  sendId: string,
  opts: { page: number; pageSize: number },
): Promise<AdminPage<FailedMail>> {
  const failed = () => db.selectFrom("mailOutbox").where("sendId", "=", sendId).where("status", "=", "failed");
  return adminPage(await countRows(failed()), opts, async (limit, offset) => {
    const rows = await failed()
      .select(["id", "recipient", "lastError", "attempts"])
      .orderBy("recipient")
      .orderBy("id")
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      recipient: r.recipient,
      lastError: r.lastError,
      attempts: Number(r.attempts),
    }));
  });
}
