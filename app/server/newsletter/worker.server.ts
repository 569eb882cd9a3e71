import type { DB } from "../db/db.server.ts";
import type { OutboxHooks } from "../mail/outbox.server.ts";
import type { Env } from "../platform/env.server.ts";
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
  // Mails whose reader has failures to clear when it is delivered (most have none: no write then).
  const withBounces = new Set<string>();
  return {
    prepare: () => prepareNextBatch(db, ctx),
    compose: async (mail) => {
      if (!mail.sendId) return null;
      const composed = await composeNewsletterMail(db, ctx, {
        sendId: mail.sendId,
        subscriberId: mail.subscriberId,
        locale: mail.locale,
        recipient: mail.recipient,
      });
      if (!composed) return null;
      const { hadBounces, ...envelope } = composed;
      if (hadBounces) withBounces.add(mail.id);
      return envelope;
    },
    outcome: async (mail, outcome) => {
      const hadBounces = withBounces.delete(mail.id);
      if (!mail.subscriberId || (outcome === "sent" && !hadBounces)) return;
      await recordNewsletterOutcome(db, mail.subscriberId, outcome);
    },
  };
}
