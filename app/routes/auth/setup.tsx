import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { DisplayNameField } from "../../components/auth/display-name-field.tsx";
import { EmailField, FormAlert, NewPasswordField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { registerSchema } from "../../lib/schemas/auth.ts";
import { markEmailVerified, userIdByEmail } from "../../server/accounts/admin-users.server.ts";
import { addAdmins } from "../../server/accounts/admins.server.ts";
import { callAuth, cookieHeaders, type FormFailure, passwordPolicy } from "../../server/accounts/guard.server.ts";
import { withRegistrationBypass } from "../../server/accounts/password-policy.server.ts";
import { consumeSetupToken, releaseSetupToken, setupTokenIsValid } from "../../server/accounts/setup.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { normalizeEmail } from "../../server/platform/env.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/setup";

export const handle = routePolicy({ cache: "none", writes: "none" });

// The first-run link printed at start while no admin exists: creates the first
// admin account (verified, since the link proves control of the server).

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200);
  const valid = await setupTokenIsValid(app.db, token);
  return data(
    { token: valid ? token : "", policy: passwordPolicy(app.env, await requestSettings(context)) },
    { status: valid ? 200 : 404 },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const form = await readForm(request);
  const token = String(form.get("token") ?? "").slice(0, 200);
  const parsed = validate(registerSchema(passwordPolicy(app.env, await requestSettings(context))), form);
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  // The token first: without a valid link, nothing (not even whether an account exists) is told.
  if (!(await setupTokenIsValid(app.db, token))) {
    return data<FormFailure>({ formError: "auth:setup.invalid" }, { status: 404 });
  }
  const email = normalizeEmail(parsed.data.email);
  if (await userIdByEmail(app.db, email)) return data<FormFailure>({ formError: "auth:setup.exists" }, { status: 409 });
  if (!(await consumeSetupToken(app.db, token))) {
    return data<FormFailure>({ formError: "auth:setup.invalid" }, { status: 404 });
  }
  // The setup link creates the first admin even while registration is closed.
  const auth = await app.auth();
  const signUp = await callAuth(() =>
    withRegistrationBypass(() =>
      auth.api.signUpEmail({
        body: { email, password: parsed.data.password, name: parsed.data.name },
        asResponse: true,
      }),
    ),
  );
  const userId = await userIdByEmail(app.db, email);
  if (!signUp.ok || !userId) {
    await releaseSetupToken(app.db, token);
    getRequest(context).log.error({ code: signUp.code }, "setup could not create the admin account");
    return data<FormFailure>({ formError: "auth:errors.internalError" }, { status: 500 });
  }
  await markEmailVerified(app.db, userId);
  await addAdmins(app.db, [email], "setup");
  getRequest(context).log.info({ email }, "created the first admin through the setup link");
  const signIn = await callAuth(() =>
    auth.api.signInEmail({
      body: { email, password: parsed.data.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  throw redirect("/", { headers: cookieHeaders(signIn.headers) });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:setup.title", [NOINDEX]);
}

export default function Setup({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const { policy } = loaderData;
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.registerSchema(policy)),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const vars = { min: policy.minLength, max: policy.maxLength };
  return (
    <section aria-labelledby="setup-title" className="mx-auto max-w-sm">
      <h1 id="setup-title" className="text-2xl font-bold">
        {t("setup.title")}
      </h1>
      {!loaderData.token ? (
        <div className="mt-6">
          <FormAlert>{t("setup.invalid")}</FormAlert>
        </div>
      ) : (
        <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
          <p>{t("setup.intro")}</p>
          {actionData?.formError && <FormAlert>{m(actionData.formError)}</FormAlert>}
          <input type="hidden" name="token" value={loaderData.token} />
          <DisplayNameField error={errors.name} />
          <EmailField label={t("email")} error={errors.email ? m(errors.email) : null} />
          <NewPasswordField
            label={t("password")}
            policy={policy}
            error={errors.password ? m(errors.password, vars) : null}
          />
          <SubmitButton busy={navigation.state === "submitting"}>{t("setup.submit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
