import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { MailMessage } from "../mail/message.server.ts";

export type AuthMailKind =
  | "verifyEmail"
  | "resetPassword"
  | "existingAccount"
  | "changeEmailConfirm"
  | "changeEmailVerify";

/** A plain-text account mail in the reader's language, from the site by its configured name (`site`). */
export function authMail(
  kind: AuthMailKind,
  locale: Locale,
  site: string,
  params: { to: string; url: string; email?: string; name?: string },
): MailMessage {
  const { t } = createI18n(locale);
  const vars = { site, url: params.url, email: params.email ?? "", name: params.name ?? "" };
  return {
    to: params.to,
    subject: t(`auth:mail.${kind}.subject`, vars),
    text: t(`auth:mail.${kind}.body`, vars),
    fromName: site,
  };
}
