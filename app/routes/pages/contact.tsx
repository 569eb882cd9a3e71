import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { EmailField, Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { SanitizedHtml } from "../../components/ui/sanitized-html.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { validate } from "../../lib/forms.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { HTML_LANG, isLocale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { contentPageMeta, NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { contactSchema } from "../../lib/schemas/contact.ts";
import { CONTACT_MESSAGE_MAX } from "../../lib/schemas/limits.ts";
import { listAdminMailboxes } from "../../server/accounts/admins.server.ts";
import { checkFormLimits, type FormFailure, retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { siteNameIn } from "../../server/mail/site-name.server.ts";
import { pageForReader } from "../../server/pages/page-view.server.ts";
import { saveContactMessage } from "../../server/site/contact.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/contact";

export const handle = routePolicy({ cache: "public", writes: "none", js: "lean" });

type ContactResult = FormFailure & { sent?: boolean };

// The contact page (docs/decisions/035-pages-and-menus.md): the "contact" page's Markdown, as
// the owner wrote it in Pages, and then the form.
export async function loader({ context }: Route.LoaderArgs) {
  const { locale } = getRequest(context);
  return { page: await pageForReader(getApp(context).db, "contact", locale), locale };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const parsed = validate(contactSchema, await readForm(request));
  if (!parsed.ok) return data<ContactResult>({ fieldErrors: parsed.errors }, { status: 400 });
  const { name, email, message, website } = parsed.data;
  const limited = await checkFormLimits<ContactResult>(context, "contact", email);
  if (limited) return limited;
  // A filled honeypot is a bot: it gets the same answer, and nothing is stored or sent.
  if (website) {
    getRequest(context).log.info("contact form honeypot filled; message dropped");
    return data<ContactResult>({ sent: true });
  }
  const locale = getRequest(context).locale;
  const settings = await requestSettings(context);
  // The message and a mail to each admin are stored together: both or neither. Each
  // admin reads it in their own language (the one they last used the site in), else in
  // the language the message was written in.
  await app.db.transaction().execute(async (trx) => {
    const id = await saveContactMessage(trx, { name, email, message, locale, ipAddress: getRequest(context).clientIp });
    for (const admin of await listAdminMailboxes(trx)) {
      const adminLocale = isLocale(admin.locale) ? admin.locale : locale;
      const { t } = createI18n(adminLocale);
      const site = siteNameIn(settings, adminLocale);
      await app.mailer.send(
        {
          to: admin.email,
          subject: t("pages.contactMailSubject", { name, site }),
          text: t("pages.contactMailBody", { name, email, message, site }),
          fromName: site,
        },
        { trx, kind: "contact", key: `contact:${id}:${admin.email}` },
      );
    }
  });
  return data<ContactResult>({ sent: true });
}

export const headers = retryAfterHeaders;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, "errors.notFoundTitle", [NOINDEX]);
  const { page } = loaderData;
  return contentPageMeta(
    matches,
    page.title,
    page.description ? [{ name: "description", content: page.description }] : [],
  );
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/contact.ts").then((m) => m.contactSchema),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-xl">
      <div
        lang={
          loaderData.page.contentLocale !== loaderData.locale ? HTML_LANG[loaderData.page.contentLocale] : undefined
        }
      >
        <h1 id="page-title" className="text-3xl font-bold tracking-tight">
          {loaderData.page.title}
        </h1>
        <SanitizedHtml className="markdown mt-4" html={loaderData.page.html} />
      </div>
      {actionData?.sent ? (
        <div className="mt-6">
          <FormAlert tone="success">{t("pages.contactSent")}</FormAlert>
        </div>
      ) : (
        <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
          {actionData?.formError && (
            <FormAlert>{m(actionData.formError, { seconds: actionData.retryAfter ?? 60 })}</FormAlert>
          )}
          <Field
            label={t("pages.contactName")}
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            error={errors.name ? m(errors.name) : null}
          />
          <EmailField label={t("pages.contactEmail")} error={errors.email ? m(errors.email) : null} />
          <Field
            label={t("pages.contactMessage")}
            name="message"
            rows={6}
            required
            maxLength={CONTACT_MESSAGE_MAX}
            error={errors.message ? m(errors.message) : null}
          />
          {/* Hidden from people (and from assistive technology); bots fill it in. */}
          <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
            <label>
              {t("pages.contactWebsite")}
              <input type="text" name="website" tabIndex={-1} autoComplete="off" />
            </label>
          </div>
          <SubmitButton busy={navigation.state === "submitting"}>{t("pages.contactSubmit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
