import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { FormAlert, NewPasswordField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { resetSchema } from "../../lib/schemas/auth.ts";
import {
  callAuth,
  checkFormLimits,
  type FormFailure,
  isPasswordPolicyCode,
  passwordPolicy,
  retryAfterHeaders,
} from "../../server/accounts/guard.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/reset-password";

export const handle = routePolicy({ cache: "none", writes: "none" });

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = (new URL(request.url).searchParams.get("token") ?? "").slice(0, 500);
  return { token, policy: passwordPolicy(getApp(context).env, await requestSettings(context)) };
}

type ResetResult = FormFailure & { done?: boolean; invalid?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const parsed = validate(
    resetSchema(passwordPolicy(app.env, await requestSettings(context))),
    await readForm(request),
  );
  if (!parsed.ok) {
    if (parsed.errors.token) return data<ResetResult>({ invalid: true }, { status: 400 });
    return data<ResetResult>({ fieldErrors: parsed.errors }, { status: 400 });
  }
  const limited = await checkFormLimits<ResetResult>(context, "other");
  if (limited) return limited;
  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.resetPassword({
      body: { token: parsed.data.token, newPassword: parsed.data.password },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (result.ok) return data<ResetResult>({ done: true });
  if (isPasswordPolicyCode(result.code)) {
    return data<ResetResult>({ fieldErrors: { password: "auth:errors.passwordPolicy" } }, { status: 400 });
  }
  return data<ResetResult>({ invalid: true }, { status: 400 });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:reset.title", [NOINDEX]);
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const { policy } = loaderData;
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.resetSchema(policy)),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const vars = { min: policy.minLength, max: policy.maxLength, seconds: actionData?.retryAfter ?? 60 };
  return (
    <section aria-labelledby="reset-title" className="mx-auto max-w-sm">
      <h1 id="reset-title" className="text-2xl font-bold">
        {t("reset.title")}
      </h1>
      {actionData?.done ? (
        <div className="mt-6 space-y-4">
          <FormAlert tone="success">{t("reset.done")}</FormAlert>
          <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
            {t("login.title")}
          </Link>
        </div>
      ) : actionData?.invalid || !loaderData.token ? (
        <div className="mt-6 space-y-4">
          <FormAlert>{t("reset.invalid")}</FormAlert>
          <Link to="/forgot-password" className="text-blue-700 underline dark:text-blue-400">
            {t("forgot.title")}
          </Link>
        </div>
      ) : (
        <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
          {actionData?.formError && <FormAlert>{m(actionData.formError, vars)}</FormAlert>}
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordField
            label={t("newPassword")}
            policy={policy}
            error={errors.password ? m(errors.password, vars) : null}
          />
          <SubmitButton busy={navigation.state === "submitting"}>{t("reset.submit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
