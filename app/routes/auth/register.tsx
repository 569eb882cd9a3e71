import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { DisplayNameField } from "../../components/auth/display-name-field.tsx";
import { EmailField, FormAlert, NewPasswordField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { registerSchema } from "../../lib/schemas/auth.ts";
import {
  callAuth,
  checkFormLimits,
  type FormFailure,
  isPasswordPolicyCode,
  messageFor,
  nameErrorFor,
  passwordPolicy,
  retryAfterHeaders,
} from "../../server/accounts/guard.server.ts";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/register";

export const handle = routePolicy({ cache: "none", writes: "none" });

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getUser(context, request)) throw redirect("/");
  // Read on every load, so a policy rejection re-reads the current rules (spec §5).
  const settings = await requestSettings(context);
  return { policy: passwordPolicy(getApp(context).env, settings), open: settings.registrationOpen };
}

type RegisterResult = FormFailure & { sentTo?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const settings = await requestSettings(context);
  // Closed registration (site settings): refused here, and by better-auth on every other path.
  if (!settings.registrationOpen) {
    return data<RegisterResult>({ formError: "auth:errors.registrationClosed" }, { status: 403 });
  }
  const policy = passwordPolicy(app.env, settings);
  const parsed = validate(registerSchema(policy), await readForm(request));
  if (!parsed.ok) return data<RegisterResult>({ fieldErrors: parsed.errors }, { status: 400 });
  const { name, email, password } = parsed.data;
  const limited = await checkFormLimits<RegisterResult>(context, "signUp", email);
  if (limited) return limited;

  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.signUpEmail({ body: { email, password, name }, headers: request.headers, asResponse: true }),
  );
  if (result.ok) return data<RegisterResult>({ sentTo: email });
  const nameError = nameErrorFor(result.code);
  if (nameError) return data<RegisterResult>({ fieldErrors: { name: nameError } }, { status: 400 });
  if (isPasswordPolicyCode(result.code)) {
    return data<RegisterResult>({ fieldErrors: { password: messageFor(result.code) } }, { status: 400 });
  }
  getRequest(context).log.error({ code: result.code, status: result.status }, "sign-up failed");
  return data<RegisterResult>({ formError: messageFor(result.code) }, { status: result.status >= 500 ? 500 : 400 });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:register.title", [NOINDEX]);
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const { policy, open } = loaderData;
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.registerSchema(policy)),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const vars = { min: policy.minLength, max: policy.maxLength, seconds: actionData?.retryAfter ?? 60 };

  if (!open) {
    return (
      <section aria-labelledby="register-title" className="mx-auto max-w-sm">
        <h1 id="register-title" className="text-2xl font-bold">
          {t("register.title")}
        </h1>
        <div className="mt-6">
          <FormAlert>{m("auth:errors.registrationClosed")}</FormAlert>
        </div>
        <p className="mt-6 text-sm">
          {t("register.haveAccount")}{" "}
          <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
            {t("register.login")}
          </Link>
        </p>
      </section>
    );
  }

  if (actionData?.sentTo) {
    return (
      <section aria-labelledby="register-title" className="mx-auto max-w-sm">
        <h1 id="register-title" className="text-2xl font-bold">
          {t("register.title")}
        </h1>
        <div className="mt-6">
          <FormAlert tone="success">{t("register.checkInbox", { email: actionData.sentTo })}</FormAlert>
        </div>
      </section>
    );
  }

  return (
    <section aria-labelledby="register-title" className="mx-auto max-w-sm">
      <h1 id="register-title" className="text-2xl font-bold">
        {t("register.title")}
      </h1>
      <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
        {actionData?.formError && <FormAlert>{m(actionData.formError, vars)}</FormAlert>}
        <DisplayNameField error={errors.name} />
        <EmailField label={t("email")} error={errors.email ? m(errors.email, vars) : null} />
        <NewPasswordField
          label={t("password")}
          policy={policy}
          error={errors.password ? m(errors.password, vars) : null}
        />
        <SubmitButton busy={navigation.state === "submitting"}>{t("register.submit")}</SubmitButton>
      </Form>
      <p className="mt-6 text-sm">
        {t("register.haveAccount")}{" "}
        <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
          {t("register.login")}
        </Link>
      </p>
    </section>
  );
}
