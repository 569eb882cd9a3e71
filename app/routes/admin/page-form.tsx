import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { ShortTime, useListTimeZone } from "../../components/admin/table-parts.tsx";
import { TextField } from "../../components/editor/editor-fields.tsx";
import { LanguageTabs } from "../../components/editor/language-tabs.tsx";
import { MarkdownEditor } from "../../components/editor/markdown-editor.tsx";
import { MarkdownPreview } from "../../components/editor/markdown-preview.tsx";
import { Field, FormAlert, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { type FieldErrors, validate } from "../../lib/forms.ts";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { HTML_LANG, type Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { PAGE_LIMITS, PAGE_STATUSES, pageSchema, slugFromTitle } from "../../lib/schemas/page.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  createPage,
  getPage,
  listPageRevisions,
  type PageFields,
  type PageSaveResult,
  restorePageRevision,
  updatePage,
} from "../../server/pages/pages.server.ts";
import type { Route } from "./+types/page-form";

// `/admin/pages/new` and `/admin/pages/{id}`: one screen to write a page in both languages,
// with the post editor's Markdown field, live preview and language tabs, and the page's
// revisions (restore brings one back). Admins only, checked by the loader and the action.

type Values = Record<keyof PageFields, string>;

const EMPTY: Values = {
  slug: "",
  status: "draft",
  titleEn: "",
  titleZh: "",
  bodyEn: "",
  bodyZh: "",
  descriptionEn: "",
  descriptionZh: "",
};

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const locale = getRequest(context).locale;
  if (!params.id) return { page: null, values: EMPTY, revisions: [], locale };
  const page = await getPage(db, params.id);
  if (!page) throw data(null, { status: 404 });
  const revisions = (await listPageRevisions(db, page.id)).map((r) => ({
    id: r.id,
    updatedAt: r.updatedAt,
    status: r.content.status,
  }));
  const values: Values = {
    slug: page.slug,
    status: page.status,
    titleEn: page.titleEn,
    titleZh: page.titleZh,
    bodyEn: page.bodyEn,
    bodyZh: page.bodyZh,
    descriptionEn: page.descriptionEn,
    descriptionZh: page.descriptionZh,
  };
  return {
    page: { id: page.id, slug: page.slug, systemKey: page.systemKey, status: page.status, version: page.version },
    values,
    revisions,
    locale,
  };
}

interface PageFailure {
  fieldErrors?: FieldErrors;
  formError?: string;
  values?: Values;
}

const FAILURE_KEYS: Record<string, string> = {
  slugReserved: "adminPages:errors.slugReserved",
  slugTaken: "adminPages:errors.slugTaken",
  slugRedirected: "adminPages:errors.slugRedirected",
  conflict: "adminPages:errors.conflict",
  missing: "admin:errors.notFound",
};

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const id = params.id ?? null;

  if (String(form.get("intent") ?? "") === "restore") {
    if (!id) throw data(null, { status: 404 });
    const revisionId = String(form.get("revisionId") ?? "");
    const restored = await app.db.transaction().execute(async (trx) => {
      const result = await restorePageRevision(trx, id, revisionId, admin.id);
      if (result.ok) await audit(trx, admin, "page.restoreRevision", { type: "page", id }, { revisionId });
      return result;
    });
    if (!restored.ok) return data<PageFailure>({ formError: FAILURE_KEYS[restored.error] }, { status: 404 });
    return redirect(`/admin/pages/${id}`, { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
  }

  const typed = Object.fromEntries(
    (Object.keys(EMPTY) as Array<keyof Values>).map((k) => [
      k,
      String(form.get(k) ?? "").slice(0, PAGE_LIMITS.bodyMax + 1),
    ]),
  ) as Values;
  const parsed = validate(pageSchema, form);
  if (!parsed.ok) return data<PageFailure>({ fieldErrors: parsed.errors, values: typed }, { status: 400 });
  const { version, ...fields } = parsed.data;
  const input: PageFields = { ...fields, slug: fields.slug || slugFromTitle(fields.titleEn) };
  if (!input.slug) {
    return data<PageFailure>(
      { fieldErrors: { slug: "adminPages:errors.slugRequired" }, values: typed },
      { status: 400 },
    );
  }

  const result: PageSaveResult = await app.db.transaction().execute(async (trx) => {
    const saved = id
      ? await updatePage(trx, id, input, admin.id, version ? { version: Number(version) } : {})
      : await createPage(trx, input, admin.id);
    if (saved.ok) {
      await audit(
        trx,
        admin,
        id ? "page.update" : "page.create",
        { type: "page", id: saved.id },
        { title: input.slug },
      );
    }
    return saved;
  });
  if (!result.ok) {
    const key = FAILURE_KEYS[result.error] ?? "admin:errors.notFound";
    if (result.error === "missing") throw data(null, { status: 404 });
    if ("field" in result) {
      return data<PageFailure>({ fieldErrors: { slug: key }, values: { ...typed, slug: input.slug } }, { status: 400 });
    }
    return data<PageFailure>({ formError: key, values: typed }, { status: 409 });
  }
  return redirect(`/admin/pages/${result.id}`, {
    headers: flashHeaders(flashOptions(app.env), "success", "flash.saved"),
  });
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta(matches, params.id ? "adminPages:form.editTitle" : "adminPages:form.newTitle", [NOINDEX]);
}

export default function PageFormScreen(props: Route.ComponentProps) {
  useAdminStrings();
  // A new version (a save, a restored revision) starts the form again from the stored page.
  return <PageFormBody key={props.loaderData.page?.version ?? "new"} {...props} />;
}

function PageFormBody({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminPages");
  const m = useMessage();
  const navigation = useNavigation();
  const zone = useListTimeZone();
  const { page, revisions, locale } = loaderData;
  const [values, setValues] = useState<Values>(actionData?.values ?? loaderData.values);
  const [active, setActive] = useState<Locale>(locale);
  const [hydrated, setHydrated] = useState(false);
  const { clientErrors, onSubmit } = useClientValidation(pageSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);
  const set = (name: keyof Values) => (value: string) => setValues((v) => ({ ...v, [name]: value }));
  // The live preview asks the server, so only once the page runs in a browser.
  useEffect(() => setHydrated(true), []);

  const tab = (l: Locale) => {
    const suffix = l === "en" ? "En" : "Zh";
    const title = `title${suffix}` as const;
    const body = `body${suffix}` as const;
    const description = `description${suffix}` as const;
    const lang = HTML_LANG[l];
    return {
      locale: l,
      label: l === "en" ? "English" : "中文",
      hasErrors: [title, body, description].some((f) => errors[f]),
      content: (
        <>
          <TextField
            label={t("form.title")}
            name={title}
            value={values[title]}
            onChange={set(title)}
            error={err(title)}
            lang={lang}
          />
          <MarkdownEditor
            name={body}
            label={t("form.body")}
            hint={t("form.bodyHint")}
            value={values[body]}
            onChange={set(body)}
            error={err(body)}
            lang={lang}
            images
          />
          <MarkdownPreview markdown={values[body]} lang={lang} active={hydrated && active === l} />
          <TextField
            label={t("form.description")}
            name={description}
            value={values[description]}
            onChange={set(description)}
            error={err(description)}
            hint={t("form.descriptionHint")}
            rows={2}
            lang={lang}
          />
        </>
      ),
    };
  };

  return (
    <section aria-labelledby="page-form-title" className="max-w-4xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="page-form-title" className="text-3xl font-bold tracking-tight">
          {page ? t("form.editTitle") : t("form.newTitle")}
        </h1>
        <div className="flex flex-wrap gap-3 text-sm">
          {page?.status === "published" && (
            <Link to={`/${page.slug}`} className="underline">
              {t("form.view")}
            </Link>
          )}
          <Link to="/admin/pages" className="underline">
            {t("form.back")}
          </Link>
        </div>
      </div>
      {actionData?.formError && <FormAlert>{m(actionData.formError)}</FormAlert>}
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-5">
        {page && <input type="hidden" name="version" value={page.version} />}
        <div className="grid gap-4 md:grid-cols-2">
          {page?.systemKey ? (
            <div className="space-y-1">
              <p className="text-sm font-medium">{t("form.address")}</p>
              <p className="text-sm">
                <code>/{page.slug}</code> — {t("form.fixedAddress")}
              </p>
              <input type="hidden" name="slug" value={page.slug} />
            </div>
          ) : (
            <Field
              label={t("form.address")}
              name="slug"
              value={values.slug}
              onValueChange={set("slug")}
              maxLength={PAGE_LIMITS.slugMax}
              autoComplete="off"
              hint={t("form.addressHint")}
              error={err("slug")}
            />
          )}
          <SelectField
            label={t("form.status")}
            name="status"
            value={values.status}
            onChange={set("status")}
            options={PAGE_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            error={err("status")}
          />
        </div>
        <LanguageTabs
          label={t("form.languages")}
          tabs={[tab("en"), tab("zh")]}
          active={active}
          onChange={setActive}
          errorLabel={t("form.tabHasErrors")}
        />
        <div className="w-48">
          <SubmitButton busy={navigation.state === "submitting"}>{t("form.save")}</SubmitButton>
        </div>
      </Form>

      {page && revisions.length > 0 && (
        <section aria-labelledby="page-revisions" className="space-y-3">
          <h2 id="page-revisions" className="text-xl font-semibold">
            {t("revisions.title")}
          </h2>
          <ol className="space-y-2 text-sm">
            {revisions.map((revision, i) => (
              <li key={revision.id} className="flex flex-wrap items-center gap-3">
                <ShortTime iso={revision.updatedAt} locale={locale} zone={zone} />
                <span>{t(`status.${revision.status}`)}</span>
                {i === 0 ? (
                  <span className="text-zinc-600 dark:text-zinc-400">{t("revisions.current")}</span>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="revisionId" value={revision.id} />
                    <button
                      type="submit"
                      className="rounded-md border border-zinc-300 px-2 py-1 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
                    >
                      {t("revisions.restore")}
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}
    </section>
  );
}
