import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { EmailField, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { emailOnlySchema } from "../../lib/schemas/auth.ts";
import { callAuth, checkFormLimits, type FormFailure, retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import type { Route } from "./+types/forgot-password";

export const handle = routePolicy({ cache: "none", writes: "none" });

type ForgotResult = FormFailure & { sentTo?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const parsed = validate(emailOnlySchema, await readForm(request));
  if (!parsed.ok) return data<ForgotResult>({ fieldErrors: parsed.errors }, { status: 400 });
  const { email } = parsed.data;
  const limited = await checkFormLimits<ForgotResult>(context, "mail", email);
  if (limited) return limited;
  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.requestPasswordReset({
      body: { email, redirectTo: "/reset-password" },
      headers: request.headers,
      asResponse: true,
    }),
  );
  if (!result.ok)
    getRequest(context).log.warn({ code: result.code, status: result.status }, "password reset request failed");
  // The same answer whether or not the account exists.
  return data<ForgotResult>({ sentTo: email });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:forgot.title", [NOINDEX]);
}

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit, onFocus } = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.emailOnlySchema),
  );
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  return (
    <section aria-labelledby="forgot-title" className="mx-auto max-w-sm">
      <h1 id="forgot-title" className="text-2xl font-bold">
        {t("forgot.title")}
      </h1>
      {actionData?.sentTo ? (
        <div className="mt-6">
          <FormAlert tone="success">{t("forgot.sent", { email: actionData.sentTo })}</FormAlert>
        </div>
      ) : (
        <Form method="post" noValidate onSubmit={onSubmit} onFocus={onFocus} className="mt-6 space-y-4">
          <p>{t("forgot.intro")}</p>
          {actionData?.formError && (
            <FormAlert>{m(actionData.formError, { seconds: actionData.retryAfter ?? 60 })}</FormAlert>
          )}
          <EmailField label={t("email")} error={errors.email ? m(errors.email) : null} />
          <SubmitButton busy={navigation.state === "submitting"}>{t("forgot.submit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
