import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { EnabledWindowFields } from "../../components/admin/form-parts.tsx";
import { UploadButton } from "../../components/media/upload-button.tsx";
import { Field, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { AD_KINDS, AD_LOCALES, AD_PLACEMENTS, AD_TEXT_MAX, adField, adSchema } from "../../lib/schemas/ad.ts";
import { windowToUtc } from "../../lib/schemas/time-window.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { createAd, getAd, type NewAd, updateAd } from "../../server/site/ads.server.ts";
import type { Route } from "./+types/ad-form";

// One screen for /admin/ads/new and /admin/ads/{id}.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  if (!params.id) return { ad: null };
  const ad = await getAd(getApp(context).db, params.id);
  if (!ad) throw data(null, { status: 404 });
  return { ad };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const parsed = validate(adSchema, await readForm(request));
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const input: Required<NewAd> = {
    placement: v.placement,
    kind: v.kind,
    titleEn: v.titleEn,
    textEn: v.textEn,
    imageUrlEn: v.imageUrlEn || null,
    imageAltEn: v.imageAltEn,
    titleZh: v.titleZh,
    textZh: v.textZh,
    imageUrlZh: v.imageUrlZh || null,
    imageAltZh: v.imageAltZh,
    linkUrl: v.linkUrl,
    enabled: v.enabled === "on",
    ...windowToUtc(v),
    weight: Number(v.weight),
  };
  // The audit log names the ad by its English title, else its Chinese one.
  const title = input.titleEn || input.titleZh;
  const id = params.id;
  if (id) {
    const updated = await app.db.transaction().execute(async (trx) => {
      if (!(await updateAd(trx, id, input))) return false;
      await audit(trx, admin, "ad.update", { type: "ad", id }, { title });
      return true;
    });
    if (!updated) throw data(null, { status: 404 });
  } else {
    await app.db.transaction().execute(async (trx) => {
      const newId = await createAd(trx, input);
      await audit(trx, admin, "ad.create", { type: "ad", id: newId }, { title });
    });
  }
  return redirect("/admin/ads", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "adminLinks:ads.edit" : "adminLinks:ads.new", [NOINDEX]);
}

export default function AdFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const m = useMessage();
  const navigation = useNavigation();
  const { ad } = loaderData;
  const { clientErrors, onSubmit } = useClientValidation(adSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);

  return (
    <section aria-labelledby="ad-form-title" className="max-w-4xl space-y-6">
      <h1 id="ad-form-title" className="text-3xl font-bold tracking-tight">
        {ad ? t("ads.edit") : t("ads.new")}
      </h1>
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <SelectField
          label={t("ads.fields.placement")}
          name="placement"
          defaultValue={ad?.placement ?? "home_top"}
          options={AD_PLACEMENTS.map((p) => ({ value: p, label: t(`placements.${p}`) }))}
          hint={t("ads.fields.placementHint")}
          error={err("placement")}
        />
        <SelectField
          label={t("ads.fields.kind")}
          name="kind"
          defaultValue={ad?.kind ?? "text"}
          options={AD_KINDS.map((k) => ({ value: k, label: t(`kinds.${k}`) }))}
          error={err("kind")}
        />
        <p id="ad-content-hint" className="text-sm text-zinc-700 dark:text-zinc-300">
          {t("ads.fields.contentHint")}
        </p>
        <div className="grid gap-4 lg:grid-cols-2">
          {AD_LOCALES.map((locale) => {
            const name = (field: "title" | "text" | "imageUrl" | "imageAlt") => adField(locale, field);
            return (
              <fieldset
                key={locale}
                aria-describedby="ad-content-hint"
                className="space-y-4 rounded-md border border-zinc-200 p-4 dark:border-zinc-800"
              >
                <legend className="px-1 font-medium">{t(`ads.fields.version.${locale}`)}</legend>
                <Field
                  label={t(`ads.fields.${name("title")}`)}
                  name={name("title")}
                  maxLength={120}
                  defaultValue={ad?.[name("title")] ?? ""}
                  error={err(name("title"))}
                />
                <Field
                  label={t(`ads.fields.${name("text")}`)}
                  name={name("text")}
                  rows={3}
                  maxLength={AD_TEXT_MAX}
                  defaultValue={ad?.[name("text")] ?? ""}
                  hint={t("ads.fields.textHint")}
                  error={err(name("text"))}
                />
                <Field
                  label={t(`ads.fields.${name("imageUrl")}`)}
                  name={name("imageUrl")}
                  maxLength={2000}
                  defaultValue={ad?.[name("imageUrl")] ?? ""}
                  hint={t("ads.fields.imageUrlHint")}
                  error={err(name("imageUrl"))}
                />
                <UploadButton target={name("imageUrl")} fieldLabel={t(`ads.fields.${name("imageUrl")}`)} />
                <Field
                  label={t(`ads.fields.${name("imageAlt")}`)}
                  name={name("imageAlt")}
                  maxLength={200}
                  defaultValue={ad?.[name("imageAlt")] ?? ""}
                  error={err(name("imageAlt"))}
                />
              </fieldset>
            );
          })}
        </div>
        <Field
          label={t("ads.fields.linkUrl")}
          name="linkUrl"
          required
          maxLength={2000}
          defaultValue={ad?.linkUrl}
          hint={t("ads.fields.linkUrlHint")}
          error={err("linkUrl")}
        />
        <Field
          label={t("ads.fields.weight")}
          name="weight"
          defaultValue={String(ad?.weight ?? 1)}
          hint={t("ads.fields.weightHint")}
          error={err("weight")}
        />
        <EnabledWindowFields
          idPrefix="ad"
          labels={{
            enabled: t("ads.fields.enabled"),
            startsAt: t("ads.fields.startsAt"),
            endsAt: t("ads.fields.endsAt"),
          }}
          value={ad}
          err={err}
        />
        <div className="flex flex-wrap items-center gap-4">
          <div className="w-48">
            <SubmitButton busy={navigation.state === "submitting"}>{ad ? t("ads.save") : t("ads.create")}</SubmitButton>
          </div>
          <Link to="/admin/ads" className="text-blue-700 underline dark:text-blue-400">
            {t("ads.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}
