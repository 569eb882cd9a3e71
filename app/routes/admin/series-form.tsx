import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { NameAndSlugFields } from "../../components/admin/name-slug-fields.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { seriesSchema } from "../../lib/schemas/series.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { transactionIfOk } from "../../server/db/db.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { generateSeriesSlug, getSeries, listSeriesParts, saveSeries } from "../../server/taxonomy/series.server.ts";
import type { Route } from "./+types/series-form";

const LIST_PATH = "/admin/series";

// /admin/series/new and /admin/series/{id}: a series' names, slug and descriptions.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const series = params.id ? await getSeries(db, params.id) : null;
  if (params.id && !series) throw data(null, { status: 404 });
  // Its parts in readers' order, any status: the order authors set with part numbers.
  const parts = series ? await listSeriesParts(db, series.id, getRequest(context).locale) : [];
  return { series, parts };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const parsed = validate(seriesSchema, await readForm(request));
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const id = params.id ?? null;
  const result = await transactionIfOk(app.db, async (trx) => {
    // An empty slug (no JS, or cleared) is made from the names, as for categories.
    const slug = v.slug || (await generateSeriesSlug(trx, [v.nameEn, v.nameZh], id));
    const saved = await saveSeries(trx, id, { ...v, slug });
    if (saved.ok)
      await audit(
        trx,
        admin,
        `series.${id ? "update" : "create"}`,
        { type: "series", id: saved.id },
        { title: v.nameEn },
      );
    return saved;
  });
  if (!result.ok) {
    if (result.reason === "notFound") throw data(null, { status: 404 });
    return data<FormFailure>({ fieldErrors: { slug: "admin:errors.slugTaken" } }, { status: 409 });
  }
  return redirect(LIST_PATH, { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "admin:series.edit" : "admin:series.new", [NOINDEX]);
}

export default function SeriesFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { t: tc } = useTranslation("adminContent");
  const m = useMessage();
  const navigation = useNavigation();
  const { series, parts } = loaderData;
  const { clientErrors, onSubmit } = useClientValidation(seriesSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);

  return (
    <section aria-labelledby="series-form-title" className="max-w-xl space-y-6">
      <h1 id="series-form-title" className="text-3xl font-bold tracking-tight">
        {t(series ? "series.edit" : "series.new")}
      </h1>
      {actionData?.formError && <FormAlert>{m(actionData.formError)}</FormAlert>}
      <Form key={series?.id ?? "new"} method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <NameAndSlugFields term={series} err={err} slugHint={t("series.slugHint")} />
        <Field
          label={t("series.descriptionEn")}
          name="descriptionEn"
          rows={3}
          maxLength={500}
          defaultValue={series?.descriptionEn}
          error={err("descriptionEn")}
        />
        <Field
          label={t("series.descriptionZh")}
          name="descriptionZh"
          rows={3}
          maxLength={500}
          defaultValue={series?.descriptionZh}
          error={err("descriptionZh")}
          lang="zh-CN"
        />
        <div className="flex flex-wrap items-center gap-4">
          <div className="w-40">
            <SubmitButton busy={navigation.state === "submitting"}>
              {series ? t("terms.save") : t("terms.create")}
            </SubmitButton>
          </div>
          <Link to={LIST_PATH} className="text-blue-700 underline dark:text-blue-400">
            {t("terms.back")}
          </Link>
        </div>
      </Form>

      {series && (
        <section
          aria-labelledby="series-parts-title"
          className="space-y-2 border-t border-zinc-200 pt-6 dark:border-zinc-800"
        >
          <h2 id="series-parts-title" className="text-xl font-semibold">
            {t("series.parts")}
          </h2>
          {parts.length === 0 ? (
            <p className="text-zinc-600 dark:text-zinc-400">{t("series.noParts")}</p>
          ) : (
            <ol className="space-y-1">
              {parts.map((part) => (
                <li key={part.id} className="flex flex-wrap gap-2">
                  <span className="tabular-nums text-zinc-600 dark:text-zinc-400">{part.seriesPosition ?? "–"}</span>
                  <span>{part.title}</span>
                  <span className="text-sm text-zinc-600 dark:text-zinc-400">({tc(`status.${part.status}`)})</span>
                </li>
              ))}
            </ol>
          )}
        </section>
      )}
    </section>
  );
}
