import type { DB } from "../db/db.server.ts";
import type { Env } from "../env.server.ts";
import type { OutboxHooks } from "../mail/outbox.server.ts";
import {
  composeNewsletterMail,
  type NewsletterContext,
  prepareNextBatch,
  recordNewsletterOutcome,
} from "./sends.server.ts";

/** What newsletter mails need from the environment. */
export function newsletterContext(env: Pick<Env, "publicUrl" | "authSecret" | "mailFrom">): NewsletterContext {
  return { publicUrl: env.publicUrl, authSecret: env.authSecret, mailFrom: env.mailFrom };
}

/** The mail worker's newsletter steps: queue recipients, render each reader's mail, count bounces. */
export function newsletterOutboxHooks(db: DB, ctx: NewsletterContext): OutboxHooks {
  return {
    prepare: () => prepareNextBatch(db, ctx),
    compose: (mail) =>
      mail.sendId
        ? composeNewsletterMail(db, ctx, { sendId: mail.sendId, subscriberId: mail.subscriberId, locale: mail.locale })
        : Promise.resolve(null),
    outcome: async (mail, outcome) => {
      if (mail.subscriberId) await recordNewsletterOutcome(db, mail.subscriberId, outcome);
    },
  };
}
