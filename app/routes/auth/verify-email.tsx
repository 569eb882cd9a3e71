import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { tokenSchema } from "../../lib/schemas/auth.ts";
import { callAuth } from "../../server/accounts/guard.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import type { Route } from "./+types/verify-email";

export const handle = routePolicy({ cache: "none", writes: "none" });

// The link in the verification mail lands here. Opening it changes nothing (mail
// scanners follow links); the button below verifies.
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: token.slice(0, 500) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const parsed = validate(tokenSchema, await readForm(request));
  if (!parsed.ok) return data({ verified: false }, { status: 400 });
  const auth = await app.auth();
  const result = await callAuth(() =>
    auth.api.verifyEmail({ query: { token: parsed.data.token }, headers: request.headers, asResponse: true }),
  );
  // better-auth answers a valid token with 200 (or a redirect when a callback is set).
  const verified = result.ok || (result.status >= 300 && result.status < 400);
  return data({ verified }, { status: verified ? 200 : 400 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:verify.title", [NOINDEX]);
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  return (
    <section aria-labelledby="verify-title" className="mx-auto max-w-sm">
      <h1 id="verify-title" className="text-2xl font-bold">
        {t("verify.title")}
      </h1>
      {actionData?.verified ? (
        <div className="mt-6 space-y-4">
          <FormAlert tone="success">{t("verify.done")}</FormAlert>
          <Link to="/login" className="text-blue-700 underline dark:text-blue-400">
            {t("login.title")}
          </Link>
        </div>
      ) : actionData || !loaderData.token ? (
        <div className="mt-6">
          <FormAlert>{t("verify.invalid")}</FormAlert>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-4">
          <p>{t("verify.intro")}</p>
          <input type="hidden" name="token" value={loaderData.token} />
          <SubmitButton>{t("verify.submit")}</SubmitButton>
        </Form>
      )}
    </section>
  );
}
