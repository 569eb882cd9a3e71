import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { UploadButton } from "../../components/media/upload-button.tsx";
import { Field, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { linkSchema } from "../../lib/schemas/link.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { createLink, getLink, type NewLink, updateLink } from "../../server/site/links.server.ts";
import type { Route } from "./+types/link-form";

// One screen for /admin/links/new and /admin/links/{id}.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  if (!params.id) return { link: null };
  const link = await getLink(getApp(context).db, params.id);
  if (!link) throw data(null, { status: 404 });
  return { link };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const parsed = validate(linkSchema, await readForm(request));
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const input: Required<NewLink> = {
    name: v.name,
    url: v.url,
    logoUrl: v.logoUrl || null,
    description: v.description,
    sortOrder: Number(v.sortOrder || "0"),
    enabled: v.enabled === "on",
  };
  const id = params.id;
  if (id) {
    const updated = await app.db.transaction().execute(async (trx) => {
      if (!(await updateLink(trx, id, input))) return false;
      await audit(trx, admin, "link.update", { type: "link", id }, { title: input.name });
      return true;
    });
    if (!updated) throw data(null, { status: 404 });
  } else {
    await app.db.transaction().execute(async (trx) => {
      const newId = await createLink(trx, input);
      await audit(trx, admin, "link.create", { type: "link", id: newId }, { title: input.name });
    });
  }
  return redirect("/admin/links", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "adminLinks:links.edit" : "adminLinks:links.new", [NOINDEX]);
}

export default function LinkFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const m = useMessage();
  const navigation = useNavigation();
  const { link } = loaderData;
  const { clientErrors, onSubmit } = useClientValidation(linkSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);

  return (
    <section aria-labelledby="link-form-title" className="max-w-xl space-y-6">
      <h1 id="link-form-title" className="text-3xl font-bold tracking-tight">
        {link ? t("links.edit") : t("links.new")}
      </h1>
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <Field
          label={t("links.fields.name")}
          name="name"
          required
          maxLength={60}
          defaultValue={link?.name}
          error={err("name")}
        />
        <Field
          label={t("links.fields.url")}
          name="url"
          required
          maxLength={2000}
          defaultValue={link?.url}
          hint={t("links.fields.urlHint")}
          error={err("url")}
        />
        <Field
          label={t("links.fields.logoUrl")}
          name="logoUrl"
          maxLength={2000}
          defaultValue={link?.logoUrl ?? ""}
          hint={t("links.fields.logoUrlHint")}
          error={err("logoUrl")}
        />
        <UploadButton target="logoUrl" fieldLabel={t("links.fields.logoUrl")} />
        <Field
          label={t("links.fields.description")}
          name="description"
          rows={3}
          maxLength={300}
          defaultValue={link?.description}
          error={err("description")}
        />
        <Field
          label={t("links.fields.sortOrder")}
          name="sortOrder"
          defaultValue={String(link?.sortOrder ?? 0)}
          error={err("sortOrder")}
        />
        <div className="flex items-center gap-2">
          <input
            id="link-enabled"
            type="checkbox"
            name="enabled"
            defaultChecked={link?.enabled ?? true}
            className="h-4 w-4"
          />
          <label htmlFor="link-enabled">{t("links.fields.enabled")}</label>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <div className="w-48">
            <SubmitButton busy={navigation.state === "submitting"}>
              {link ? t("links.save") : t("links.create")}
            </SubmitButton>
          </div>
          <Link to="/admin/links" className="text-blue-700 underline dark:text-blue-400">
            {t("links.cancel")}
          </Link>
        </div>
      </Form>
    </section>
  );
}
