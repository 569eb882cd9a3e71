import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { retryAfterHeaders } from "../../server/auth/guard.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { confirmSubscription, unsubscribe } from "../../server/repos/subscribers.server.ts";
import { pressSubscriberToken } from "../../server/subscriptions.server.ts";
import type { Route } from "./+types/subscriber-token";

// The two pages a subscriber mail links to, /subscribe/confirm and /unsubscribe
// (routes.ts gives this module both): the same page around a different change.

export const handle = routePolicy({ cache: "none", writes: "none" });

type TokenPage = "confirm" | "unsubscribe";

/** Which of the two a request is for (a client-side submit's URL ends in `.data`). */
function pageOf(request: Request): TokenPage {
  return /\/unsubscribe(\.data)?$/.test(new URL(request.url).pathname) ? "unsubscribe" : "confirm";
}

const APPLY = { confirm: confirmSubscription, unsubscribe };

// Opening the link changes nothing (mail scanners follow links); the button on the page does.
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { page: pageOf(request), token: token.slice(0, 500) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  return pressSubscriberToken(
    {
      db: app.db,
      rateLimitMultiplier: app.env.rateLimitMultiplier,
      clientIp: getRequest(context).clientIp,
      rateLimits: app.rateLimits,
    },
    request,
    APPLY[pageOf(request)],
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
  const { page, token } = loaderData;
  const { t } = useTranslation();
  const m = useMessage();
  const titleId = `${page}-title`;
  return (
    <section aria-labelledby={titleId} className="mx-auto max-w-sm">
      <h1 id={titleId} className="text-2xl font-bold">
        {t(`subscribe.${page}.title`)}
      </h1>
      {actionData?.done ? (
        <div className="mt-6">
          <FormAlert tone="success">{t(`subscribe.${page}.done`)}</FormAlert>
        </div>
      ) : actionData?.formError ? (
        <div className="mt-6">
          <FormAlert>{m(actionData.formError, { seconds: actionData.retryAfter ?? 60 })}</FormAlert>
        </div>
      ) : actionData || !token ? (
        <div className="mt-6">
          <FormAlert>{t("subscribe.invalidLink")}</FormAlert>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p>{t(`subscribe.${page}.intro`)}</p>
          <input type="hidden" name="token" value={token} />
          <SubmitButton>{t(`subscribe.${page}.submit`)}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
