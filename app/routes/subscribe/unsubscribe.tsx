import { SubscriberTokenPage } from "../../components/subscriber-token-page.tsx";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { retryAfterHeaders } from "../../server/auth/guard.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { unsubscribe } from "../../server/repos/subscribers.server.ts";
import { pressSubscriberToken } from "../../server/subscriptions.server.ts";
import type { Route } from "./+types/unsubscribe";

export const handle = routePolicy({ cache: "none", writes: "none" });

// Every subscriber mail links here. Opening it changes nothing (mail scanners
// follow links); the button on the page does.
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 500) };
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
    unsubscribe,
  );
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "subscribe.unsubscribe.title", [NOINDEX]);
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return <SubscriberTokenPage page="unsubscribe" token={loaderData.token} result={actionData} />;
}
