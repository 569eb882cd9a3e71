import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { SubscribeForm, type SubscribeResult } from "../../components/layout/subscribe-box.tsx";
import { validate } from "../../lib/forms.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { subscribeSchema } from "../../lib/schemas/auth.ts";
import { retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { subscribe } from "../../server/newsletter/subscriptions.server.ts";
import type { Route } from "./+types/subscribe";

export const handle = routePolicy({ cache: "none", writes: "none", js: "lean" });

// The footer's subscribe box posts here (through a fetcher, or as a page without
// JavaScript). The answer never tells whether the address was already subscribed.
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const parsed = validate(subscribeSchema, await readForm(request));
  if (!parsed.ok) return data<SubscribeResult>({ fieldErrors: parsed.errors }, { status: 400 });
  const locale = getRequest(context).locale;
  try {
    const result = await subscribe(
      {
        db: app.db,
        mailer: app.mailer,
        log: getRequest(context).log,
        publicUrl: app.env.publicUrl,
        rateLimitMultiplier: app.env.rateLimitMultiplier,
        clientIp: getRequest(context).clientIp,
        rateLimits: app.rateLimits,
      },
      parsed.data.email,
      locale,
      parsed.data.languages ?? locale,
    );
    if (!result.ok) {
      return data<SubscribeResult>(
        { formError: "common:subscribe.tooManyRequests", retryAfter: result.retryAfter },
        { status: 429, headers: { "Retry-After": String(result.retryAfter) } },
      );
    }
  } catch (error) {
    getRequest(context).log.error({ err: error }, "subscribe failed");
    return data<SubscribeResult>({ formError: "common:subscribe.failed" }, { status: 503 });
  }
  return data<SubscribeResult>({ message: "common:subscribe.checkInbox" });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "subscribe.heading", [NOINDEX]);
}

export default function Subscribe({ actionData, matches }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const locale = matches[0].loaderData.locale;
  return (
    <section aria-labelledby="subscribe-title" className="mx-auto max-w-sm">
      <h1 id="subscribe-title" className="mb-6 text-2xl font-bold">
        {t("subscribe.pageTitle", { site: matches[0].loaderData.site.name })}
      </h1>
      <SubscribeForm
        locale={locale}
        result={actionData}
        busy={navigation.state === "submitting"}
        FormComponent={Form}
      />
    </section>
  );
}
