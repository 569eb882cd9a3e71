import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { EnabledWindowFields } from "../../components/admin/form-parts.tsx";
import { UploadButton } from "../../components/media/upload-button.tsx";
import { Field, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { isSafeUrl, swaperSchema } from "../../lib/schemas/swaper.ts";
import { windowToUtc } from "../../lib/schemas/time-window.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { createSlide, getSlide, type NewSlide, updateSlide } from "../../server/site/carousel.server.ts";
import type { Route } from "./+types/swaper-form";

// One screen for /admin/swapers/new and /admin/swapers/{id}.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  if (!params.id) return { slide: null };
  const slide = await getSlide(getApp(context).db, params.id);
  if (!slide) throw data(null, { status: 404 });
  return { slide };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const parsed = validate(swaperSchema, await readForm(request));
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const input: Required<NewSlide> = {
    titleEn: v.titleEn,
    titleZh: v.titleZh,
    imageUrl: v.imageUrl,
    imageAlt: v.imageAlt,
    linkUrl: v.linkUrl || null,
    sortOrder: Number(v.sortOrder || "0"),
    enabled: v.enabled === "on",
    ...windowToUtc(v),
  };
  const title = input.titleEn || input.titleZh;
  const id = params.id;
  if (id) {
    const updated = await app.db.transaction().execute(async (trx) => {
      if (!(await updateSlide(trx, id, input))) return false;
      await audit(trx, admin, "swaper.update", { type: "swaper", id }, { title });
      return true;
    });
    if (!updated) throw data(null, { status: 404 });
  } else {
    await app.db.transaction().execute(async (trx) => {
      const newId = await createSlide(trx, input);
      await audit(trx, admin, "swaper.create", { type: "swaper", id: newId }, { title });
    });
  }
  return redirect("/admin/swapers", { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "admin:swapers.edit" : "admin:swapers.new", [NOINDEX]);
}

export default function SwaperFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const m = useMessage();
  const navigation = useNavigation();
  const { slide } = loaderData;
  const { clientErrors, onSubmit } = useClientValidation(swaperSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);
  const [preview, setPreview] = useState({
    imageUrl: slide?.imageUrl ?? "",
    title: slide?.titleEn || slide?.titleZh || "",
    alt: slide?.imageAlt ?? "",
  });
  const heading = slide ? t("swapers.edit") : t("swapers.new");

  return (
    <section aria-labelledby="swaper-form-title" className="space-y-6">
      <h1 id="swaper-form-title" className="text-3xl font-bold tracking-tight">
        {heading}
      </h1>
      <div className="grid gap-8 lg:grid-cols-2">
        <Form
          method="post"
          noValidate
          onSubmit={onSubmit}
          className="space-y-4"
          onChange={(event) => {
            const form = event.currentTarget;
            const value = (name: string) => String(new FormData(form).get(name) ?? "");
            setPreview({
              imageUrl: value("imageUrl"),
              title: value("titleEn") || value("titleZh"),
              alt: value("imageAlt"),
            });
          }}
        >
          <Field
            label={t("swapers.fields.titleEn")}
            name="titleEn"
            maxLength={120}
            defaultValue={slide?.titleEn}
            error={err("titleEn")}
          />
          <Field
            label={t("swapers.fields.titleZh")}
            name="titleZh"
            maxLength={120}
            defaultValue={slide?.titleZh}
            error={err("titleZh")}
          />
          <Field
            label={t("swapers.fields.imageUrl")}
            name="imageUrl"
            required
            maxLength={2000}
            defaultValue={slide?.imageUrl}
            hint={t("swapers.fields.imageUrlHint")}
            error={err("imageUrl")}
          />
          <UploadButton target="imageUrl" fieldLabel={t("swapers.fields.imageUrl")} />
          <Field
            label={t("swapers.fields.imageAlt")}
            name="imageAlt"
            maxLength={200}
            defaultValue={slide?.imageAlt}
            error={err("imageAlt")}
          />
          <Field
            label={t("swapers.fields.linkUrl")}
            name="linkUrl"
            maxLength={2000}
            defaultValue={slide?.linkUrl ?? ""}
            hint={t("swapers.fields.linkUrlHint")}
            error={err("linkUrl")}
          />
          <Field
            label={t("swapers.fields.sortOrder")}
            name="sortOrder"
            defaultValue={String(slide?.sortOrder ?? 0)}
            error={err("sortOrder")}
          />
          <EnabledWindowFields
            idPrefix="swaper"
            labels={{
              enabled: t("swapers.fields.enabled"),
              startsAt: t("swapers.fields.startsAt"),
              endsAt: t("swapers.fields.endsAt"),
            }}
            value={slide}
            err={err}
          />
          <div className="flex flex-wrap items-center gap-4">
            <div className="w-48">
              <SubmitButton busy={navigation.state === "submitting"}>
                {slide ? t("swapers.save") : t("swapers.create")}
              </SubmitButton>
            </div>
            <Link to="/admin/swapers" className="text-blue-700 underline dark:text-blue-400">
              {t("swapers.cancel")}
            </Link>
          </div>
        </Form>
        <figure aria-label={t("swapers.fields.preview")} className="space-y-2">
          <figcaption className="text-sm font-medium">{t("swapers.fields.preview")}</figcaption>
          <div className="relative aspect-[16/6] overflow-hidden rounded-lg bg-zinc-100 dark:bg-zinc-800">
            {isSafeUrl(preview.imageUrl) && (
              <img src={preview.imageUrl} alt={preview.alt} className="h-full w-full object-cover" />
            )}
            {preview.title && (
              <p className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/70 to-transparent px-4 pt-10 pb-3 text-lg font-semibold text-white">
                {preview.title}
              </p>
            )}
          </div>
        </figure>
      </div>
    </section>
  );
}
