import { DEFAULT_LOCALE, isLocale, type Locale } from "../../lib/i18n/locale.ts";
import type { Mailer } from "../mail/message.server.ts";

/** What a notice needs to be queued: the mailer, the site's address and the secret that signs links. */
export interface NoticeDeps {
  mailer: Mailer;
  /** PUBLIC_URL, without a trailing slash. */
  publicUrl: string;
  /** The auth secret (HMAC of the stop links). */
  secret: string;
}

/** The language of mail to a user: the one they last used the site in, else the site's default. */
export function recipientLocale(stored: string | null | undefined): Locale {
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

/** The notice dependencies of this process's services. */
export function noticeDeps(app: { mailer: Mailer; env: { publicUrl: string; authSecret: string } }): NoticeDeps {
  return { mailer: app.mailer, publicUrl: app.env.publicUrl, secret: app.env.authSecret };
}
