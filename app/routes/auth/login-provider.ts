import { redirect } from "react-router";
import { localeFromPath } from "../../lib/i18n/locale.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { configuredProviders } from "../../server/accounts/auth-config.server.ts";
import { callAuth, cookieHeaders, hitAuthLimits } from "../../server/accounts/guard.server.ts";
import { safeRedirectPath } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import type { Route } from "./+types/login-provider";

export const handle = routePolicy({ cache: "none" });

/**
 * Starts a sign-in with an OAuth/OpenID provider: the login page's provider
 * buttons are links here. It is a GET on purpose. Our CSP has `form-action
 * 'self'`, and Chromium applies form-action to the redirects that follow a form
 * submission, so a form POST answered with a redirect to the provider is blocked
 * whenever the browser submits the form itself (without JavaScript). A link's
 * navigation is not a form submission. Starting a sign-in changes nothing for
 * the visitor: it only sets the state cookie that the callback must present.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const locale = localeFromPath(url.pathname);
  const loginPage = `${locale ? `/${locale}` : ""}/login?redirectTo=${encodeURIComponent(redirectTo)}`;
  const failed = (error: string) =>
    redirect(`${loginPage}&error=${error}`, { headers: { "Cache-Control": "no-store" } });

  if (!configuredProviders(app.env).includes(params.provider)) throw failed("unknown_provider");
  const limit = await hitAuthLimits(context, "signIn");
  if (!limit.allowed) throw failed("too_many_requests");
  // better-auth sends the provider's answer to its callback, then on to
  // redirectTo, or to the login page with `?error=<code>`.
  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.signInSocial({
      body: { provider: params.provider, callbackURL: redirectTo, errorCallbackURL: loginPage },
      headers: request.headers,
      asResponse: true,
    }),
  );
  const target =
    result.body && typeof result.body === "object" && "url" in result.body ? String(result.body.url) : null;
  if (!result.ok || !target) {
    getRequest(context).log.warn(
      { provider: params.provider, status: result.status, code: result.code },
      "OAuth sign-in did not start",
    );
    throw failed("oauth_start_failed");
  }
  const headers = cookieHeaders(result.headers);
  headers.set("Cache-Control", "no-store");
  throw redirect(target, { headers });
}
