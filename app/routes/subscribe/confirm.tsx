import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { tokenSchema } from "../../lib/schemas/auth.ts";
import { retryAfterHeaders } from "../../server/auth/guard.server.ts";
import { getApp } from "../../server/context.server.ts";
import { confirmSubscription } from "../../server/repos/subscribers.server.ts";
import { tokenPressLimited } from "../../server/subscriptions.server.ts";
import type { Route } from "./+types/confirm";

type Result = { done: boolean; formError?: string; retryAfter?: number };

// The confirmation link in the subscribe mail lands here. Opening it changes nothing (mail scanners
// follow links); the button below does.
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 500) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const retryAfter = await tokenPressLimited({
    db: app.db,
    rateLimitMultiplier: app.env.rateLimitMultiplier,
    clientIp: app.clientIp,
  });
  if (retryAfter !== null) {
    return data<Result>(
      { done: false, formError: "common:subscribe.tooManyRequests", retryAfter },
      { status: 429, headers: { "Retry-After": String(retryAfter) } },
    );
  }
  const parsed = validate(tokenSchema, await request.formData());
  const outcome = parsed.ok ? await confirmSubscription(app.db, parsed.data.token) : { kind: "invalid" as const };
  if (outcome.kind === "invalid") return data<Result>({ done: false }, { status: 400 });
  return data<Result>({ done: true });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "subscribe.confirm.title", [NOINDEX]);
}

export default function SubscribeConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const m = useMessage();
  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-sm">
      <h1 id="confirm-title" className="text-2xl font-bold">
        {t("subscribe.confirm.title")}
      </h1>
      {actionData?.done ? (
        <div className="mt-6">
          <FormAlert tone="success">{t("subscribe.confirm.done")}</FormAlert>
        </div>
      ) : actionData?.formError ? (
        <div className="mt-6">
          <FormAlert>{m(actionData.formError, { seconds: actionData.retryAfter ?? 60 })}</FormAlert>
        </div>
      ) : actionData || !loaderData.token ? (
        <div className="mt-6">
          <FormAlert>{t("subscribe.invalidLink")}</FormAlert>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p>{t("subscribe.confirm.intro")}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <SubmitButton>{t("subscribe.confirm.submit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
