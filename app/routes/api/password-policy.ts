import { routePolicy } from "../../lib/route-policy.ts";
import { passwordPolicy } from "../../server/accounts/guard.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/password-policy";

export const handle = routePolicy({ cache: "none" });

// GET /api/auth/password-policy: the rules a new password must meet (read-only).
export async function loader({ context }: Route.LoaderArgs) {
  const { env } = getApp(context);
  const policy = passwordPolicy(env, await requestSettings(context));
  return Response.json(
    { minLength: policy.minLength, maxLength: policy.maxLength, requiredClasses: policy.requiredClasses },
    { headers: { "Cache-Control": "no-cache" } },
  );
}
