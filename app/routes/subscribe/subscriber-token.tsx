import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FormAlert, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { SUBSCRIBER_LANGUAGES, subscriberLanguagesSchema, tokenSchema } from "../../lib/schemas/auth.ts";
import { retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  confirmSubscription,
  setSubscriberLanguages,
  subscriberForToken,
  unsubscribe,
} from "../../server/newsletter/subscribers.server.ts";
import { pressSubscriberToken } from "../../server/newsletter/subscriptions.server.ts";
import type { Route } from "./+types/subscriber-token";

// The two pages a subscriber mail links to, /subscribe/confirm and /unsubscribe
// (routes.ts gives this module both): the same page around a different change.
// The unsubscribe page also lets the reader change the languages they get, and
// answers a mail client's one-click POST (RFC 8058: the body is
// "List-Unsubscribe=One-Click", the token is in the URL).

export const handle = routePolicy({ cache: "none", writes: "none" });

type TokenPage = "confirm" | "unsubscribe";

/** Which of the two a request is for (a client-side submit's URL ends in `.data`). */
function pageOf(request: Request): TokenPage {
  return /\/unsubscribe(\.data)?$/.test(new URL(request.url).pathname) ? "unsubscribe" : "confirm";
}

// Opening the link changes nothing (mail scanners follow links); the buttons on the page do.
/** The newsletter send an unsubscribe link came from (`&send=`), checked when it is counted. */
const sendOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 40) : "");

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const token = (params.get("token") ?? "").slice(0, 500);
  const send = sendOf(params.get("send"));
  const page = pageOf(request);
  let languages: string | null = null;
  let preferred: string | null = null;
  if (page === "unsubscribe" && token) {
    const app = getApp(context);
    const subscriber = await subscriberForToken(app.db, token, app.env.authSecret);
    if (subscriber && subscriber.status !== "unsubscribed") {
      languages = subscriber.languages;
      preferred = subscriber.locale;
    }
  }
  return { page, token, send, languages, preferred };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const page = pageOf(request);
  const form = await readForm(request);
  const deps = {
    db: app.db,
    rateLimitMultiplier: app.env.rateLimitMultiplier,
    clientIp: getRequest(context).clientIp,
    rateLimits: app.rateLimits,
  };
  const secret = app.env.authSecret;
  if (page === "confirm") {
    const parsed = validate(tokenSchema, form);
    return pressSubscriberToken(deps, "confirm", (db) =>
      parsed.ok ? confirmSubscription(db, parsed.data.token) : Promise.resolve({ kind: "invalid" as const }),
    );
  }
  if (form.get("intent") === "languages") {
    const parsed = validate(subscriberLanguagesSchema, form);
    return pressSubscriberToken(deps, "languages", (db) =>
      parsed.ok
        ? setSubscriberLanguages(db, parsed.data.token, secret, parsed.data.languages)
        : Promise.resolve({ kind: "invalid" as const }),
    );
  }
  // A mail client's one-click unsubscribe carries the token in the URL only.
  const oneClick = form.get("List-Unsubscribe") === "One-Click";
  const url = new URL(request.url);
  const token = oneClick ? (url.searchParams.get("token") ?? "") : form.get("token");
  const send = sendOf(oneClick ? url.searchParams.get("send") : form.get("send")) || null;
  const parsed = validate(tokenSchema, { token: typeof token === "string" ? token : "" });
  return pressSubscriberToken(deps, "unsubscribe", (db) =>
    parsed.ok
      ? unsubscribe(db, parsed.data.token, secret, new Date(), send)
      : Promise.resolve({ kind: "invalid" as const }),
  );
}

export const headers = retryAfterHeaders;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(
    matches,
    loaderData?.page === "unsubscribe" ? "subscribe.unsubscribe.title" : "subscribe.confirm.title",
    [NOINDEX],
  );
}

export default function SubscriberToken({ loaderData, actionData }: Route.ComponentProps) {
  const { page, token, send, languages, preferred } = loaderData;
  const { t } = useTranslation();
  const m = useMessage();
  const titleId = `${page}-title`;
  const changedLanguages = actionData?.done && actionData.change === "languages";
  const outcome = actionData?.done ? (
    <FormAlert tone="success">
      {changedLanguages
        ? t("subscribe.unsubscribe.languageDone", {
            languages: t(`subscribe.languages.${actionData.languages ?? "both"}`),
          })
        : t(`subscribe.${page}.done`)}
    </FormAlert>
  ) : actionData?.formError ? (
    <FormAlert>{m(actionData.formError, { seconds: actionData.retryAfter ?? 60 })}</FormAlert>
  ) : actionData || !token ? (
    <FormAlert>{t("subscribe.invalidLink")}</FormAlert>
  ) : null;
  const unsubscribed = actionData?.done && actionData.change === "unsubscribe";
  return (
    <section aria-labelledby={titleId} className="mx-auto max-w-sm">
      <h1 id={titleId} className="text-2xl font-bold">
        {t(`subscribe.${page}.title`)}
      </h1>
      {outcome && <div className="mt-6">{outcome}</div>}
      {token && !(actionData?.done && page === "confirm") && !unsubscribed && !actionData?.formError && (
        <>
          {!(actionData && !actionData.done) && (
            <Form method="post" className="mt-6 space-y-4">
              <p>{t(`subscribe.${page}.intro`)}</p>
              <input type="hidden" name="token" value={token} />
              {page === "unsubscribe" && send ? <input type="hidden" name="send" value={send} /> : null}
              <SubmitButton>{t(`subscribe.${page}.submit`)}</SubmitButton>
            </Form>
          )}
          {page === "unsubscribe" && languages && (
            <Form method="post" className="mt-10 space-y-4" aria-labelledby="language-title">
              <h2 id="language-title" className="text-xl font-semibold">
                <a id="language" href="#language" className="no-underline">
                  {t("subscribe.unsubscribe.languageTitle")}
                </a>
              </h2>
              <p>
                {t("subscribe.unsubscribe.languageIntro", {
                  preferred: t(`subscribe.languages.${preferred === "en" ? "en" : "zh"}`),
                })}
              </p>
              <input type="hidden" name="token" value={token} />
              <input type="hidden" name="intent" value="languages" />
              <SelectField
                label={t("subscribe.languageLabel")}
                name="languages"
                defaultValue={actionData?.languages ?? languages}
                options={SUBSCRIBER_LANGUAGES.map((value) => ({ value, label: t(`subscribe.languages.${value}`) }))}
              />
              <SubmitButton>{t("subscribe.unsubscribe.languageSubmit")}</SubmitButton>
            </Form>
          )}
        </>
      )}
    </section>
  );
}
