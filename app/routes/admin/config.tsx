import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { CheckboxField, NumberField, SettingsFieldset } from "../../components/admin/form-parts.tsx";
import { UploadButton } from "../../components/media/upload-button.tsx";
import { Field, FormAlert, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { PASSWORD_CLASSES } from "../../lib/schemas/auth.ts";
import {
  changedKeys,
  formToSettings,
  PAGE_MAX,
  POSTS_PER_PAGE_MAX,
  settingsToForm,
  siteConfigSchema,
} from "../../lib/schemas/site-config.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { passwordPolicy } from "../../server/accounts/password-policy.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  getSiteSettings,
  InvalidSettingError,
  type SettingKey,
  type SiteSettings,
  updateSiteSettings,
} from "../../server/site/site-settings.server.ts";
import type { Route } from "./+types/config";

// /admin/config: every site setting in one form. Settings are read from the
// database on every request (app/server/site/request-settings.server.ts), so a save
// applies at once on every instance, without a restart.

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db, env } = getApp(context);
  const settings = await getSiteSettings(db);
  const envPolicy = passwordPolicy(env, { passwordPolicy: null });
  return {
    values: settingsToForm(settings, envPolicy),
    envPolicy: { minLength: envPolicy.minLength, requiredClasses: envPolicy.requiredClasses },
  };
}

type ConfigFailure = FormFailure & { values?: Record<string, string> };

/** Settings edited on pages of their own (admin/fediverse, admin/brand), not in this form. */
type OwnPage = "fediverse" | "brand" | "appearance" | "homeCover";

const FIELD_NAMES = Object.keys(siteConfigSchema.shape);

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const parsed = validate(siteConfigSchema, form);
  // What was typed comes back with the errors, so nothing is lost (also without JavaScript).
  const typed = () =>
    Object.fromEntries(FIELD_NAMES.map((name) => [name, String(form.get(name) ?? "").slice(0, PAGE_MAX + 1)]));
  if (!parsed.ok) return data<ConfigFailure>({ fieldErrors: parsed.errors, values: typed() }, { status: 400 });

  // The Fediverse settings and the brand have their own pages (admin/fediverse, admin/brand).
  const next: Omit<SiteSettings, OwnPage> = formToSettings(parsed.data);
  try {
    await app.db.transaction().execute(async (trx) => {
      const current = await getSiteSettings(trx);
      const {
        fediverse: _elsewhere,
        brand: _brand,
        appearance: _appearance,
        homeCover: _homeCover,
        ...ownSettings
      } = current;
      // Only the settings that changed are written, and named (not their values) in the audit log.
      const keys = (Object.keys(next) as Array<Exclude<SettingKey, OwnPage>>).filter(
        (k) => changedKeys(current[k], next[k]).length > 0,
      );
      if (keys.length === 0) return;
      const changes: Partial<SiteSettings> = Object.fromEntries(keys.map((k) => [k, next[k]]));
      await updateSiteSettings(trx, changes);
      await audit(
        trx,
        admin,
        "settings.update",
        { type: "settings", id: null },
        { title: keys.join(", "), keys: changedKeys(ownSettings, next) },
      );
    });
  } catch (error) {
    if (!(error instanceof InvalidSettingError)) throw error;
    // The form's schema is at least as strict as the store's; this is a backstop.
    getRequest(context).log.warn({ key: error.key }, "a setting passed the form but not the store");
    return data<ConfigFailure>({ formError: "adminConfig:errors.invalid", values: typed() }, { status: 400 });
  }
  return redirect("/admin/config", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminConfig:title", [NOINDEX]);
}

const CLASS_FIELD = {
  lower: "passwordLower",
  upper: "passwordUpper",
  digit: "passwordDigit",
  symbol: "passwordSymbol",
} as const;

export default function AdminConfigPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminConfig");
  const m = useMessage();
  const navigation = useNavigation();
  const { clientErrors, onSubmit } = useClientValidation(siteConfigSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const values = actionData?.values ?? loaderData.values;
  const err = (name: string) => (errors[name] ? m(errors[name], { max: POSTS_PER_PAGE_MAX }) : null);
  const field = (name: string, label: string, extra: { maxLength?: number; hint?: string; rows?: number } = {}) => (
    <Field label={label} name={name} defaultValue={values[name] ?? ""} error={err(name)} {...extra} />
  );
  const { envPolicy } = loaderData;
  const envClasses = envPolicy.requiredClasses.map((c) => t(`classes.${c}`)).join(", ") || t("classes.none");
  const hasErrors = Object.keys(errors).length > 0 || Boolean(actionData?.formError);

  return (
    <section aria-labelledby="config-title" className="space-y-6">
      <h1 id="config-title" className="text-3xl font-bold tracking-tight">
        {t("title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("intro")}</p>
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-6">
        {hasErrors && <FormAlert>{m(actionData?.formError ?? "adminConfig:errors.summary")}</FormAlert>}

        <SettingsFieldset legend={t("site.legend")}>
          <div className="grid gap-4 md:grid-cols-2">
            {field("siteNameEn", t("site.nameEn"), { maxLength: 100 })}
            {field("siteNameZh", t("site.nameZh"), { maxLength: 100 })}
            {field("siteDescriptionEn", t("site.descriptionEn"), { maxLength: 300, rows: 2 })}
            {field("siteDescriptionZh", t("site.descriptionZh"), { maxLength: 300, rows: 2 })}
          </div>
          {field("socialImage", t("site.socialImage"), { maxLength: 2000, hint: t("site.socialImageHint") })}
          <UploadButton target="socialImage" fieldLabel={t("site.socialImage")} />
        </SettingsFieldset>

        <SettingsFieldset legend={t("footer.legend")}>
          <div className="grid gap-4 md:grid-cols-2">
            {field("aboutTextEn", t("footer.aboutEn"), { maxLength: 600, rows: 3 })}
            {field("aboutTextZh", t("footer.aboutZh"), { maxLength: 600, rows: 3 })}
            {field("copyrightEn", t("footer.copyrightEn"), { maxLength: 200, hint: t("footer.copyrightHint") })}
            {field("copyrightZh", t("footer.copyrightZh"), { maxLength: 200, hint: t("footer.copyrightHint") })}
            {field("filingIcp", t("footer.filingIcp"), { maxLength: 60, hint: t("footer.filingIcpHint") })}
            {field("filingPolice", t("footer.filingPolice"), { maxLength: 60, hint: t("footer.filingPoliceHint") })}
          </div>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("footer.socialHint")}</p>
          <div className="grid gap-4 md:grid-cols-2">
            {field("socialGithub", t("footer.github"), { maxLength: 500 })}
            {field("socialX", t("footer.x"), { maxLength: 500 })}
            {field("socialWeibo", t("footer.weibo"), { maxLength: 500 })}
            {field("socialZhihu", t("footer.zhihu"), { maxLength: 500 })}
          </div>
        </SettingsFieldset>

        <SettingsFieldset legend={t("reading.legend")}>
          <NumberField
            name="postsPerPage"
            label={t("reading.postsPerPage")}
            hint={t("reading.postsPerPageHint", { max: POSTS_PER_PAGE_MAX })}
            min={1}
            max={POSTS_PER_PAGE_MAX}
            defaultValue={values.postsPerPage ?? ""}
            error={err("postsPerPage")}
          />
          <SelectField
            name="commentModeration"
            label={t("reading.moderation")}
            defaultValue={values.commentModeration ?? "auto"}
            options={[
              { value: "auto", label: t("reading.moderationAuto") },
              { value: "hold", label: t("reading.moderationHold") },
            ]}
            error={err("commentModeration")}
          />
          <SelectField
            name="moderationNotice"
            label={t("reading.moderationNotice")}
            hint={t("reading.moderationNoticeHint")}
            defaultValue={values.moderationNotice ?? "each"}
            options={[
              { value: "each", label: t("reading.moderationNoticeEach") },
              { value: "daily", label: t("reading.moderationNoticeDaily") },
              { value: "off", label: t("reading.moderationNoticeOff") },
            ]}
            error={err("moderationNotice")}
          />
          <CheckboxField
            name="languageButtonsForEveryone"
            label={t("reading.languageButtons")}
            hint={t("reading.languageButtonsHint")}
            defaultChecked={values.languageButtonsForEveryone === "on"}
          />
          <CheckboxField
            name="footerLinks"
            label={t("reading.footerLinks")}
            hint={t("reading.footerLinksHint")}
            defaultChecked={values.footerLinks === "on"}
          />
          <CheckboxField
            name="translationNotice"
            label={t("reading.translationNotice")}
            hint={t("reading.translationNoticeHint")}
            defaultChecked={values.translationNotice === "on"}
          />
        </SettingsFieldset>

        <SettingsFieldset legend={t("accounts.legend")}>
          <CheckboxField
            name="registrationOpen"
            label={t("accounts.registrationOpen")}
            hint={t("accounts.registrationOpenHint")}
            defaultChecked={values.registrationOpen === "on"}
          />
          <CheckboxField
            name="passwordCustom"
            label={t("accounts.passwordCustom")}
            hint={t("accounts.passwordCustomHint", { min: envPolicy.minLength, classes: envClasses })}
            defaultChecked={values.passwordCustom === "on"}
          />
          <NumberField
            name="passwordMinLength"
            label={t("accounts.passwordMinLength")}
            hint={t("accounts.passwordMinLengthHint")}
            min={6}
            max={128}
            defaultValue={values.passwordMinLength ?? ""}
            error={err("passwordMinLength")}
          />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{t("accounts.passwordClasses")}</legend>
            {PASSWORD_CLASSES.map((c) => (
              <CheckboxField
                key={c}
                name={CLASS_FIELD[c]}
                label={t(`classes.${c}`)}
                defaultChecked={values[CLASS_FIELD[c]] === "on"}
              />
            ))}
          </fieldset>
        </SettingsFieldset>

        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {t("pages.moved")}{" "}
          <Link to="/admin/pages" className="text-blue-700 underline dark:text-blue-400">
            {t("pages.open")}
          </Link>
        </p>

        <div className="w-48">
          <SubmitButton busy={navigation.state === "submitting"}>{t("save")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
