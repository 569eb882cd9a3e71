import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { EmailField, Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { PROVIDER_NAMES } from "../../lib/auth-providers.ts";
import { validate } from "../../lib/forms.ts";
import { localeFromPath } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { loginSchema } from "../../lib/schemas/auth.ts";
import { configuredProviders } from "../../server/accounts/auth-config.server.ts";
import {
  callAuth,
  checkFormLimits,
  cookieHeaders,
  type FormFailure,
  mailAllowed,
  messageFor,
  oauthErrorMessage,
  retryAfterHeaders,
} from "../../server/accounts/guard.server.ts";
import { getUser, safeRedirectPath } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import type { Route } from "./+types/login";

export const handle = routePolicy({ cache: "none", writes: "none" });

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (await getUser(context, request)) throw redirect(redirectTo);
  // A failed OAuth sign-in comes back here with `?error=<code>`.
  const error = url.searchParams.get("error");
  // Provider buttons are links (see routes/auth/login-provider.ts), in this page's language.
  const locale = localeFromPath(url.pathname);
  const providers = configuredProviders(app.env).map((id) => ({
    id,
    href: `${locale ? `/${locale}` : ""}/login/provider/${id}?redirectTo=${encodeURIComponent(redirectTo)}`,
  }));
  return { redirectTo, providers, oauthError: error ? oauthErrorMessage(error) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const form = await readForm(request);
  const redirectTo = safeRedirectPath(String(form.get("redirectTo") ?? ""));

  const parsed = validate(loginSchema, form);
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const { email, password } = parsed.data;
  const limited = await checkFormLimits(context, "signIn", email);
  if (limited) return limited;

  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.signInEmail({
      body: { email, password, rememberMe: true },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (result.ok) {
    throw redirect(redirectTo, {
      headers: flashHeaders(flashOptions(app.env), "success", "flash.signedIn", cookieHeaders(result.headers)),
    });
  }
  if (result.code === "EMAIL_NOT_VERIFIED") {
    // The password was right: send a fresh verification link, within the mail limits.
    const allowed = await mailAllowed(context, email);
    if (allowed) {
      await callAuth(() =>
        auth.api.sendVerificationEmail({
          body: { email, callbackURL: "/login" },
          headers: request.headers,
          asResponse: true,
        }),
      );
    }
    return data<FormFailure>({ formError: "auth:errors.emailNotVerified" }, { status: 403 });
  }
  const status = result.status === 403 ? 403 : result.status >= 500 ? 500 : 400;
  if (status === 500) getRequest(context).log.error({ code: result.code }, "sign-in failed on the server");
  return data<FormFailure>({ formError: messageFor(result.code) }, { status });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:login.title", [NOINDEX]);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.loginSchema),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const formError = actionData?.formError ?? loaderData.oauthError;
  return (
    <section aria-labelledby="login-title" className="mx-auto max-w-sm">
      <h1 id="login-title" className="text-2xl font-bold">
        {t("login.title")}
      </h1>
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
        {formError && <FormAlert>{m(formError, { seconds: actionData?.retryAfter ?? 60 })}</FormAlert>}
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        <EmailField label={t("email")} error={errors.email ? m(errors.email) : null} />
        <Field
          label={t("password")}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.password ? m(errors.password) : null}
        />
        <SubmitButton busy={navigation.state === "submitting"}>{t("login.submit")}</SubmitButton>
      </Form>
      <p className="mt-4 text-sm">
        <Link to="/forgot-password" className="text-blue-700 underline dark:text-blue-400">
          {t("login.forgot")}
        </Link>
      </p>
      {loaderData.providers.length > 0 && (
        <div className="mt-6 space-y-2">
          <p className="text-center text-sm text-zinc-600 dark:text-zinc-400">{t("login.or")}</p>
          {loaderData.providers.map((provider) => (
            <a
              key={provider.id}
              href={provider.href}
              rel="nofollow"
              className="block w-full rounded-md border border-zinc-300 px-4 py-2 text-center font-medium hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
            >
              {t("login.withProvider", { provider: PROVIDER_NAMES[provider.id] ?? provider.id })}
            </a>
          ))}
        </div>
      )}
      <p className="mt-6 text-sm">
        {t("login.noAccount")}{" "}
        <Link to="/register" className="text-blue-700 underline dark:text-blue-400">
          {t("login.register")}
        </Link>
      </p>
    </section>
  );
}
