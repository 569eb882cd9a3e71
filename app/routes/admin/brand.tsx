import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { CheckboxField, SettingsFieldset } from "../../components/admin/form-parts.tsx";
import { UploadButton } from "../../components/media/upload-button.tsx";
import { Field, FormAlert, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { checkAccent, DARK_PAGE, formatRatio, HEX_COLOUR } from "../../lib/brand.ts";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { mediaIdFromUrl } from "../../lib/media.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { brandSchema } from "../../lib/schemas/brand.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { getMedia } from "../../server/media/media.server.ts";
import { makeIcons } from "../../server/settings/icons.server.ts";
import { getSiteSettings, type SiteSettings, updateSiteSettings } from "../../server/site/site-settings.server.ts";
import type { Route } from "./+types/brand";

// /admin/brand: the accent colour, the logo and the site icon, and how reading pages look
// (the post body's typeface and size, public view counts) (issue 48). What readers see
// changes with them: a save drops every cached page (and wakes the social card job, whose
// cards carry the accent and the logo).
export const handle = routePolicy({ writes: "content" });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { brand, appearance, homeCover } = await getSiteSettings(getApp(context).db);
  return {
    values: {
      accent: brand.accent,
      logo: brand.logo,
      icon: brand.icon,
      cover: homeCover.src,
      coverAltEn: homeCover.alt.en,
      coverAltZh: homeCover.alt.zh,
      typeface: appearance.typeface,
      homeLayout: appearance.homeLayout,
      largeText: appearance.largeText ? "on" : "",
      viewCounts: appearance.viewCounts ? "on" : "",
    },
  };
}

type BrandFailure = FormFailure & {
  values: Record<string, string>;
  /** An accent too light for the page: both colours and the ratio, for the message. */
  tooLight?: { accent: string; page: string; ratio: string };
};

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const values = {
    accent: String(form.get("accent") ?? "").slice(0, 20),
    logo: String(form.get("logo") ?? "").slice(0, 200),
    icon: String(form.get("icon") ?? "").slice(0, 200),
    cover: String(form.get("cover") ?? "").slice(0, 200),
    coverAltEn: String(form.get("coverAltEn") ?? "").slice(0, 400),
    coverAltZh: String(form.get("coverAltZh") ?? "").slice(0, 400),
    typeface: String(form.get("typeface") ?? "").slice(0, 20),
    homeLayout: String(form.get("homeLayout") ?? "").slice(0, 20),
    largeText: form.get("largeText") === "on" ? "on" : "",
    viewCounts: form.get("viewCounts") === "on" ? "on" : "",
  };
  const fail = (failure: Omit<BrandFailure, "values">) => data<BrandFailure>({ ...failure, values }, { status: 400 });
  const parsed = validate(brandSchema, form);
  if (!parsed.ok) return fail({ fieldErrors: parsed.errors });
  const { accent, logo, icon, cover, coverAltEn, coverAltZh, typeface, homeLayout, largeText, viewCounts } =
    parsed.data;
  if (accent) {
    const check = checkAccent(accent);
    if (!check.ok) {
      return fail({
        fieldErrors: { accent: "adminBrand:accent.tooLight" },
        tooLight: { accent: check.accent, page: check.page, ratio: formatRatio(check.ratio) },
      });
    }
  }
  // The uploads must exist: the logo's size is kept for the pages, the icon's sizes made now.
  const logoMedia = logo ? await getMedia(app.db, mediaIdFromUrl(logo) ?? "") : null;
  if (logo && !logoMedia) return fail({ fieldErrors: { logo: "adminBrand:errors.missingUpload" } });
  // The cover's size and variants are read where it is shown; it must exist now.
  if (cover && !(await getMedia(app.db, mediaIdFromUrl(cover) ?? ""))) {
    return fail({ fieldErrors: { cover: "adminBrand:errors.missingUpload" } });
  }
  const current = await getSiteSettings(app.db);
  if (icon && icon !== current.brand.icon && !(await makeIcons(app.db, app.storage, icon))) {
    return fail({ fieldErrors: { icon: "adminBrand:errors.missingUpload" } });
  }
  const brand: SiteSettings["brand"] = {
    accent,
    logo,
    logoWidth: logoMedia?.width ?? 0,
    logoHeight: logoMedia?.height ?? 0,
    icon,
  };
  const appearance: SiteSettings["appearance"] = {
    typeface,
    largeText: largeText === "on",
    viewCounts: viewCounts === "on",
    homeLayout,
  };
  const homeCover: SiteSettings["homeCover"] = { src: cover, alt: { en: coverAltEn, zh: coverAltZh } };
  await app.db.transaction().execute(async (trx) => {
    await updateSiteSettings(trx, { brand, appearance, homeCover });
    await audit(
      trx,
      admin,
      "settings.update",
      { type: "settings", id: null },
      { title: "brand, appearance, home cover", keys: ["brand", "appearance", "homeCover"] },
    );
  });
  return redirect("/admin/brand", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminBrand:title", [NOINDEX]);
}

export default function AdminBrandPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminBrand");
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit } = useClientValidation(brandSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? loaderData.values;
  const [accent, setAccent] = useState(values.accent ?? "");
  const pickerId = useId();
  const typed = accent.trim().toLowerCase();
  const check = HEX_COLOUR.test(typed) ? checkAccent(typed) : null;
  // The server's word on the accent holds until the colour is changed.
  const serverError = actionData?.values.accent?.trim().toLowerCase() === typed ? errors.accent : undefined;
  // Checked as it is typed, with the same rule as the action.
  const accentError =
    check && !check.ok
      ? t("accent.tooLight", { accent: check.accent, page: check.page, ratio: formatRatio(check.ratio) })
      : serverError === "adminBrand:accent.tooLight" && actionData?.tooLight
        ? t("accent.tooLight", actionData.tooLight)
        : serverError
          ? m(serverError)
          : clientErrors?.accent
            ? m(clientErrors.accent)
            : null;
  const darkNote =
    check?.ok === true
      ? t("accent.dark", { dark: check.darkLink, page: DARK_PAGE, ratio: formatRatio(check.darkRatio) })
      : null;
  const hasErrors = Object.keys(errors).some((name) => name !== "accent") || Boolean(accentError);
  const shown = check?.ok ? check.accent : null;

  return (
    <section aria-labelledby="brand-title" className="space-y-6">
      <h1 id="brand-title" className="text-3xl font-bold tracking-tight">
        {t("title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("intro")}</p>
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-6">
        {hasErrors && <FormAlert>{t("errors.summary")}</FormAlert>}

        <SettingsFieldset legend={t("accent.legend")}>
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-0 flex-1 basis-64">
              <Field
                label={t("accent.label")}
                name="accent"
                value={accent}
                onValueChange={setAccent}
                placeholder="#1d4ed8"
                maxLength={7}
                hint={t("accent.hint")}
                error={accentError}
              />
            </div>
            <div className="mb-1 space-y-1">
              <label htmlFor={pickerId} className="sr-only">
                {t("accent.picker")}
              </label>
              <input
                id={pickerId}
                type="color"
                value={shown ?? "#1d4ed8"}
                onChange={(event) => setAccent(event.currentTarget.value)}
                className="h-10 w-14 cursor-pointer rounded border border-zinc-300 dark:border-zinc-700"
              />
            </div>
          </div>
          {darkNote && <p className="text-sm text-zinc-600 dark:text-zinc-400">{darkNote}</p>}
          {shown && check?.ok && (
            <div className="grid gap-3 sm:grid-cols-2" data-testid="accent-preview">
              <p className="flex items-center gap-3 rounded-md border border-zinc-200 bg-white p-3">
                <span className="underline" style={{ color: check.accent }}>
                  {t("accent.previewLink")}
                </span>
                <span className="rounded-md px-3 py-1 text-white" style={{ backgroundColor: check.accent }}>
                  {t("accent.previewButton")}
                </span>
              </p>
              <p className="flex items-center gap-3 rounded-md border border-zinc-800 bg-zinc-950 p-3">
                <span className="underline" style={{ color: check.darkLink }}>
                  {t("accent.previewLink")}
                </span>
                <span className="rounded-md px-3 py-1 text-white" style={{ backgroundColor: check.palette[700] }}>
                  {t("accent.previewButton")}
                </span>
              </p>
            </div>
          )}
        </SettingsFieldset>

        <SettingsFieldset legend={t("logo.legend")}>
          <Field
            label={t("logo.label")}
            name="logo"
            defaultValue={values.logo ?? ""}
            maxLength={200}
            hint={t("logo.hint")}
            error={errors.logo ? m(errors.logo) : null}
          />
          <UploadButton target="logo" fieldLabel={t("logo.label")} />
          {loaderData.values.logo && (
            <p className="flex items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
              {t("logo.current")}
              <img src={loaderData.values.logo} alt="" className="h-10 w-auto" />
            </p>
          )}
          <Field
            label={t("logo.icon")}
            name="icon"
            defaultValue={values.icon ?? ""}
            maxLength={200}
            hint={t("logo.iconHint")}
            error={errors.icon ? m(errors.icon) : null}
          />
          <UploadButton target="icon" fieldLabel={t("logo.icon")} />
          {loaderData.values.icon && (
            <p className="flex items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
              {t("logo.currentIcon")}
              <img src={loaderData.values.icon} alt="" width="32" height="32" className="h-8 w-8" />
            </p>
          )}
        </SettingsFieldset>

        <SettingsFieldset legend={t("cover.legend")}>
          <Field
            label={t("cover.label")}
            name="cover"
            defaultValue={values.cover ?? ""}
            maxLength={200}
            hint={t("cover.hint")}
            error={errors.cover ? m(errors.cover) : null}
          />
          <UploadButton target="cover" fieldLabel={t("cover.label")} />
          {loaderData.values.cover && (
            <p className="flex items-center gap-3 text-sm text-zinc-600 dark:text-zinc-400">
              {t("cover.current")}
              <img src={loaderData.values.cover} alt="" className="h-16 w-auto rounded" />
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t("cover.altEn")}
              name="coverAltEn"
              defaultValue={values.coverAltEn ?? ""}
              maxLength={200}
              hint={t("cover.altHint")}
              error={errors.coverAltEn ? m(errors.coverAltEn) : null}
            />
            <Field
              label={t("cover.altZh")}
              name="coverAltZh"
              lang="zh"
              defaultValue={values.coverAltZh ?? ""}
              maxLength={200}
              hint={t("cover.altHint")}
              error={errors.coverAltZh ? m(errors.coverAltZh) : null}
            />
          </div>
        </SettingsFieldset>

        <SettingsFieldset legend={t("reading.legend")}>
          <SelectField
            name="typeface"
            label={t("reading.typeface")}
            hint={t("reading.typefaceHint")}
            defaultValue={values.typeface ?? "sans"}
            options={[
              { value: "sans", label: t("reading.sans") },
              { value: "serif", label: t("reading.serif") },
            ]}
            error={errors.typeface ? m(errors.typeface) : null}
          />
          <SelectField
            name="homeLayout"
            label={t("reading.homeLayout")}
            hint={t("reading.homeLayoutHint")}
            defaultValue={values.homeLayout ?? "list"}
            options={[
              { value: "list", label: t("reading.layoutList") },
              { value: "grid", label: t("reading.layoutGrid") },
              { value: "hero", label: t("reading.layoutHero") },
            ]}
            error={errors.homeLayout ? m(errors.homeLayout) : null}
          />
          <CheckboxField name="largeText" label={t("reading.largeText")} defaultChecked={values.largeText === "on"} />
          <CheckboxField
            name="viewCounts"
            label={t("reading.viewCounts")}
            hint={t("reading.viewCountsHint")}
            defaultChecked={values.viewCounts === "on"}
          />
        </SettingsFieldset>

        <div className="w-48">
          <SubmitButton busy={navigation.state === "submitting"}>{t("save")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
