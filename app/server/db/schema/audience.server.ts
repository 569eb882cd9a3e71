// Part of the database's one interface (`../schema.server.ts`): Mail and the people it goes to: the outbox, newsletter sends, subscribers and their imports, contact messages.
import type { ColumnType, Generated } from "kysely";
import type { Locale, Timestamp } from "./common.server.ts";

/** "cancelled": not sent on purpose (the reader unsubscribed or the post went away first). */
export type MailStatus = "queued" | "sent" | "failed" | "cancelled";

/** Every mail the site sends, queued with the change that causes it and sent by one worker. */
export interface MailOutboxTable {
  id: string;
  /** Unique per mail: queuing the same key twice keeps the first (e.g. `newsletter:{postId}:{subscriberId}`). */
  key: string;
  /** What it is for: "auth", "contact", "subscribe", … */
  kind: string;
  recipient: string;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers as a JSON object (List-Unsubscribe, …). */
  headers: string | null;
  status: MailStatus;
  attempts: Generated<number>;
  /** When the worker may try it (again). */
  nextAttemptAt: Timestamp;
  /** The server's reply to the last failed attempt. */
  lastError: string | null;
  createdAt: Timestamp;
  sentAt: Timestamp | null;
  /** A newsletter mail: its send; the body is rendered from the send's mail when it goes out. */
  sendId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The subscriber a newsletter mail is for (bounces are counted against them). */
  subscriberId: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language of the newsletter version this reader gets. */
  locale: ColumnType<Locale | null, Locale | null | undefined, Locale | null>;
  /** The sender's display name (the site's name in the recipient's language); null: MAIL_FROM as it is. */
  fromName: ColumnType<string | null, string | null | undefined, string | null>;
}

export type NewsletterSendStatus = "preparing" | "sending" | "cancelled";

/** One post mailed to its subscribers: recipients are queued in batches from `cursor` on. */
export interface NewsletterSendsTable {
  id: string;
  postId: string;
  status: NewsletterSendStatus;
  /** The last subscriber id queued (subscribers are walked in id order). */
  cursor: string | null;
  recipients: ColumnType<number, number | undefined, number>;
  /** JSON `NewsletterMails`: the rendered mail per language, set by the first batch. */
  mails: string | null;
  createdBy: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type SubscriberStatus = "pending" | "confirmed" | "unsubscribed";

/** Which versions of a post a subscriber reads: one language, or both (then their `locale` first). */
export type SubscriberLanguages = Locale | "both";

/** Newsletter subscribers (double opt-in). */
export interface SubscribersTable {
  id: string;
  /** Normalised: trimmed, lower-case. */
  email: string;
  locale: Locale;
  status: SubscriberStatus;
  /** sha256 (hex) of the token in the confirmation link. */
  confirmTokenHash: string;
  /** sha256 (hex) of the token in every mail's unsubscribe link. */
  unsubscribeTokenHash: string;
  confirmedAt: Timestamp | null;
  unsubscribedAt: Timestamp | null;
  languages: ColumnType<SubscriberLanguages, SubscriberLanguages | undefined, SubscriberLanguages>;
  /** Permanent delivery failures in a row; reset by a delivered mail. */
  bounceCount: ColumnType<number, number | undefined, number>;
  /** Set at the third permanent failure: never mailed again until they subscribe again. */
  bouncedAt: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export type SubscriberImportStatus = "queued" | "running" | "done" | "failed";

/** One uploaded subscriber CSV, imported in the background from `processed` on (decision 011). */
export interface SubscriberImportsTable {
  id: string;
  status: ColumnType<SubscriberImportStatus, SubscriberImportStatus | undefined, SubscriberImportStatus>;
  fileName: string;
  /** The language for rows naming none (an `ImportDefaultLanguages`). */
  defaultLanguages: string;
  actorId: string;
  actorEmail: string;
  /** Candidate rows stored at upload. */
  total: ColumnType<number, number | undefined, number>;
  /** The cursor: candidate rows with `seq` below it are done. */
  processed: ColumnType<number, number | undefined, number>;
  imported: ColumnType<number, number | undefined, number>;
  /** Already on the list (any status): left as they were. */
  existing: ColumnType<number, number | undefined, number>;
  duplicates: ColumnType<number, number | undefined, number>;
  notSubscribed: ColumnType<number, number | undefined, number>;
  invalid: ColumnType<number, number | undefined, number>;
  /** JSON `ImportProblem[]`: the first invalid rows. */
  problems: ColumnType<string, string | undefined, string>;
  /** Chunks that failed in a row; the import fails at IMPORT_MAX_FAILURES. */
  failures: ColumnType<number, number | undefined, number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  finishedAt: Timestamp | null;
}

/** A candidate row still to import (personal data: deleted as it is processed). */
export interface SubscriberImportRowsTable {
  importId: string;
  seq: number;
  line: number;
  email: string;
  languages: SubscriberLanguages;
  locale: Locale;
  createdAt: string | null;
}

export interface ContactMessagesTable {
  id: string;
  name: string;
  email: string;
  message: string;
  locale: Locale;
  ipAddress: string | null;
  status: ColumnType<string, string | undefined, string>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}
