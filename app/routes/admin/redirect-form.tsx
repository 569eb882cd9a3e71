import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { Field, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { checkTarget, normalizeFrom, redirectSchema } from "../../lib/redirects.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { getRedirect, REDIRECTS_CHANGED, saveRedirect } from "../../server/redirects/redirects.server.ts";
import type { Route } from "./+types/redirect-form";

// One screen for /admin/redirects/new and /admin/redirects/{id}.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  // A new redirect may start from an old path (Insights links its 404s here with `?from=`).
  if (!params.id)
    return { redirect: null, from: new URL(request.url).searchParams.get("from")?.slice(0, 2000) ?? null };
  const found = await getRedirect(getApp(context).db, params.id);
  if (!found) throw data(null, { status: 404 });
  return { redirect: found, from: null };
}

/** Where a refusal of the saved rule shows: a from-path the site answers or another row has, or a target that loops. */
const PLAN_ERRORS = {
  fromReserved: { from: "adminLinks:redirects.errors.fromReserved" },
  fromLive: { from: "adminLinks:redirects.errors.fromLive" },
  fromTaken: { from: "adminLinks:redirects.errors.fromTaken" },
  self: { to: "adminLinks:redirects.errors.self" },
  loop: { to: "adminLinks:redirects.errors.loop" },
} as const;

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const parsed = validate(redirectSchema, await readForm(request));
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const from = normalizeFrom(v.from);
  const to = checkTarget(v.to, v.external === "on");
  // The schema refused these already; this narrows the types.
  if (!from.ok)
    return data<FormFailure>({ fieldErrors: { from: `adminLinks:redirects.errors.${from.error}` } }, { status: 400 });
  if (!to.ok)
    return data<FormFailure>({ fieldErrors: { to: `adminLinks:redirects.errors.${to.error}` } }, { status: 400 });
  const id = params.id;
  const outcome = await app.db.transaction().execute(async (trx) => {
    const saved = await saveRedirect(
      trx,
      {
        fromPath: from.path,
        fromQuery: from.query,
        to: to.target,
        status: v.status === "302" ? 302 : 301,
        external: v.external === "on",
        note: v.note,
      },
      id,
    );
    if (saved?.ok) {
      await audit(
        trx,
        admin,
        id ? "redirect.update" : "redirect.create",
        { type: "redirect", id: saved.id },
        {
          title: v.from,
          to: saved.to,
          repointed: saved.repointed,
        },
      );
    }
    return saved;
  });
  if (!outcome) throw data(null, { status: 404 });
  if (!outcome.ok) return data<FormFailure>({ fieldErrors: { ...PLAN_ERRORS[outcome.error] } }, { status: 400 });
  // Every instance reloads its redirect map; no rendered page changes.
  getRequest(context).changes = REDIRECTS_CHANGED;
  return redirect("/admin/redirects", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "adminLinks:redirects.edit" : "adminLinks:redirects.new", [NOINDEX]);
}

export default function RedirectFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const m = useMessage();
  const navigation = useNavigation();
  const { redirect: row, from: startFrom } = loaderData;
  const { clientErrors, onSubmit } = useClientValidation(redirectSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);

  return (
    <section aria-labelledby="redirect-form-title" className="max-w-xl space-y-6">
      <h1 id="redirect-form-title" className="text-3xl font-bold tracking-tight">
        {row ? t("redirects.edit") : t("redirects.new")}
      </h1>
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <Field
          label={t("redirects.fields.from")}
          name="from"
          required
          maxLength={2000}
          defaultValue={row?.from ?? startFrom ?? undefined}
          hint={t("redirects.fields.fromHint")}
          error={err("from")}
        />
        <Field
          label={t("redirects.fields.to")}
          name="to"
          required
          maxLength={2000}
          defaultValue={row?.to}
          hint={t("redirects.fields.toHint")}
          error={err("to")}
        />
        <div className="flex items-center gap-2">
          <input
            id="redirect-external"
            type="checkbox"
            name="external"
            defaultChecked={row?.external ?? false}
            className="h-4 w-4"
            aria-describedby="redirect-external-hint"
          />
          <label htmlFor="redirect-external">{t("redirects.fields.external")}</label>
        </div>
        <p id="redirect-external-hint" className="text-sm text-zinc-600 dark:text-zinc-400">
          {t("redirects.fields.externalHint")}
        </p>
        <SelectField
          label={t("redirects.fields.status")}
          name="status"
          defaultValue={String(row?.status ?? 301)}
          options={[
            { value: "301", label: t("redirects.fields.status301") },
            { value: "302", label: t("redirects.fields.status302") },
          ]}
          error={err("status")}
        />
        <Field
          label={t("redirects.fields.note")}
          name="note"
          maxLength={200}
          defaultValue={row?.note ?? ""}
          error={err("note")}
        />
        <div className="flex flex-wrap items-center gap-4">
          <div className="w-48">
            <SubmitButton busy={navigation.state === "submitting"}>
              {row ? t("redirects.save") : t("redirects.create")}
            </SubmitButton>
          </div>
          <Link to="/admin/redirects" className="text-blue-700 underline dark:text-blue-400">
            {t("redirects.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}
