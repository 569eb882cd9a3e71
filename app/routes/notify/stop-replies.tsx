import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { setReplyNotifications } from "../../server/notify/notification-prefs.server.ts";
import { verifyReplyStopToken } from "../../server/notify/stop-token.server.ts";
import type { Route } from "./+types/stop-replies";

// /notifications/replies/stop?token=… (and /en, /zh): the stop link of a reply
// notification. Opening it changes nothing (mail scanners follow links); the button
// does, and so does a mail client's one-click POST to the same address (RFC 8058,
// the mail's List-Unsubscribe header), which carries the token in the URL only.

export const handle = routePolicy({ cache: "none", writes: "none" });

type StopResult = { done: true } | { done: false; invalid: true };

const tokenOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 300) : "");

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = tokenOf(new URL(request.url).searchParams.get("token"));
  const valid = verifyReplyStopToken(getApp(context).env.authSecret, token) !== null;
  return data({ token: valid ? token : "" }, { status: valid ? 200 : 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const form = await readForm(request, { emptyIfNotForm: true });
  const token = tokenOf(form.get("token")) || tokenOf(new URL(request.url).searchParams.get("token"));
  const userId = verifyReplyStopToken(app.env.authSecret, token);
  if (!userId) return data<StopResult>({ done: false, invalid: true }, { status: 400 });
  // An account deleted since has nothing left to stop: the answer is the same.
  if (await setReplyNotifications(app.db, userId, false))
    getRequest(context).log.info({ userId }, "reply notifications stopped from a mail link");
  return data<StopResult>({ done: true });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "post:notify.stop.title", [NOINDEX]);
}

export default function StopReplies({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("post");
  const { token } = loaderData;
  return (
    <section aria-labelledby="stop-replies-title" className="mx-auto max-w-sm">
      <h1 id="stop-replies-title" className="text-2xl font-bold">
        {t("notify.stop.title")}
      </h1>
      <div className="mt-6 space-y-4">
        {actionData?.done ? (
          <FormAlert tone="success">{t("notify.stop.done")}</FormAlert>
        ) : actionData || !token ? (
          <FormAlert>{t("notify.stop.invalid")}</FormAlert>
        ) : (
          <Form method="post" className="space-y-4">
            <p>{t("notify.stop.intro")}</p>
            <input type="hidden" name="token" value={token} />
            <SubmitButton>{t("notify.stop.submit")}</SubmitButton>
          </Form>
        )}
      </div>
    </section>
  );
}
