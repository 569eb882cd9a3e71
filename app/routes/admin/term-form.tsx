import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { ADMIN_BUTTON } from "../../components/admin/list-parts.tsx";
import { NameAndSlugFields } from "../../components/admin/name-slug-fields.tsx";
import { Field, FormAlert, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { termSchema } from "../../lib/schemas/term.ts";
import { termBasePath, termKind, termName } from "../../lib/terms.ts";
import type { FormFailure } from "../../server/accounts/guard.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { transactionIfOk } from "../../server/db/db.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  generateTermSlug,
  getTerm,
  listTermsForAdmin,
  mergeTags,
  saveTerm,
} from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/term-form";

// One screen for new and existing categories and tags; tags can also be merged here.
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const kind = termKind(request);
  const term = params.id ? await getTerm(db, kind, params.id) : null;
  if (params.id && !term) throw data(null, { status: 404 });
  // Merge targets: the other tags (first 200 by name; an admin with more searches the list).
  const mergeTargets =
    kind === "tag" && term
      ? (await listTermsForAdmin(db, "tag", { sort: "name", page: 1, pageSize: 200 })).items.filter(
          (t) => t.id !== term.id,
        )
      : [];
  return { kind, term, mergeTargets, locale: getRequest(context).locale };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const kind = termKind(request);
  const form = await readForm(request);
  const flash = (key: "flash.saved" | "flash.deleted") => ({
    headers: flashHeaders(flashOptions(app.env), "success", key),
  });

  if (form.get("intent") === "merge") {
    const id = params.id;
    const into = String(form.get("into") ?? "");
    const from = id ? await getTerm(app.db, "tag", id) : undefined;
    const target = into ? await getTerm(app.db, "tag", into) : undefined;
    if (kind !== "tag" || !from || !target || from.id === target.id) {
      return data<FormFailure>({ formError: "admin:errors.notFound" }, { status: 400 });
    }
    await app.db.transaction().execute(async (trx) => {
      await mergeTags(trx, from.id, target.id);
      await audit(trx, admin, "tag.merge", { type: "tag", id: target.id }, { title: from.nameEn, into: target.nameEn });
    });
    return redirect(`/admin/tags/${target.id}`, flash("flash.saved"));
  }

  const parsed = validate(termSchema, form);
  if (!parsed.ok) return data<FormFailure>({ fieldErrors: parsed.errors }, { status: 400 });
  const v = parsed.data;
  const result = await transactionIfOk(app.db, async (trx) => {
    // An empty slug (no JS, or the admin cleared it) is made from the names here.
    const slug = v.slug || (await generateTermSlug(trx, kind, [v.nameEn, v.nameZh], params.id ?? null));
    const input = { ...v, slug, sortOrder: Number(v.sortOrder || "0") };
    const saved = await saveTerm(trx, kind, params.id ?? null, input);
    if (saved.ok) {
      await audit(
        trx,
        admin,
        `${kind}.${params.id ? "update" : "create"}`,
        { type: kind, id: saved.id },
        { title: v.nameEn },
      );
    }
    return saved;
  });
  if (!result.ok) {
    if (result.reason === "notFound") throw data(null, { status: 404 });
    return data<FormFailure>({ fieldErrors: { slug: "admin:errors.slugTaken" } }, { status: 409 });
  }
  return redirect(termBasePath(kind), flash("flash.saved"));
}

export function meta({ matches, params, loaderData }: Route.MetaArgs) {
  const section = loaderData?.kind === "tag" ? "tags" : "categories";
  return pageMeta(matches, `admin:${section}.${params.id ? "edit" : "new"}`, [NOINDEX]);
}

export default function TermFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const m = useMessage();
  const navigation = useNavigation();
  const { kind, term, mergeTargets, locale } = loaderData;
  const section = kind === "tag" ? "tags" : "categories";
  const { clientErrors, onSubmit } = useClientValidation(termSchema);
  const errors = clientErrors ?? actionData?.fieldErrors ?? {};
  const err = (name: string) => (errors[name] ? m(errors[name]) : null);

  return (
    <section aria-labelledby="term-form-title" className="max-w-xl space-y-6">
      <h1 id="term-form-title" className="text-3xl font-bold tracking-tight">
        {t(`${section}.${term ? "edit" : "new"}`)}
      </h1>
      {actionData?.formError && <FormAlert>{m(actionData.formError)}</FormAlert>}
      {/* Keyed by the term: after a merge the page shows another term, and its fields (and their state) must reset. */}
      <Form key={term?.id ?? "new"} method="post" noValidate onSubmit={onSubmit} className="space-y-4">
        <NameAndSlugFields term={term} err={err} />
        {kind === "category" && (
          <>
            <Field
              label={t("terms.description")}
              name="description"
              rows={3}
              maxLength={500}
              defaultValue={term?.description}
              error={err("description")}
            />
            <Field
              label={t("terms.sortOrder")}
              name="sortOrder"
              defaultValue={String(term?.sortOrder ?? 0)}
              error={err("sortOrder")}
            />
          </>
        )}
        <div className="flex flex-wrap items-center gap-4">
          <div className="w-40">
            <SubmitButton busy={navigation.state === "submitting"}>
              {term ? t("terms.save") : t("terms.create")}
            </SubmitButton>
          </div>
          <Link to={termBasePath(kind)} className="text-blue-700 underline dark:text-blue-400">
            {t("terms.back")}
          </Link>
        </div>
      </Form>

      {kind === "tag" && term && (
        <section aria-labelledby="merge-title" className="space-y-3 border-t border-zinc-200 pt-6 dark:border-zinc-800">
          <h2 id="merge-title" className="text-xl font-semibold">
            {t("tags.merge")}
          </h2>
          {mergeTargets.length === 0 ? (
            <p className="text-zinc-600 dark:text-zinc-400">{t("tags.mergeNone")}</p>
          ) : (
            <Form method="post" className="space-y-3">
              <input type="hidden" name="intent" value="merge" />
              <p id="merge-hint" className="text-sm text-zinc-600 dark:text-zinc-400">
                {t("tags.mergeHint")}
              </p>
              <div className="flex flex-wrap items-end gap-2">
                <div>
                  <label htmlFor="merge-into" className="block text-sm font-medium">
                    {t("tags.mergeInto", { name: termName(term, locale) })}
                  </label>
                  <select
                    id="merge-into"
                    name="into"
                    required
                    aria-describedby="merge-hint"
                    className="rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
                  >
                    {mergeTargets.map((target) => (
                      <option key={target.id} value={target.id}>
                        {termName(target, locale)} ({target.slug})
                      </option>
                    ))}
                  </select>
                </div>
                <button type="submit" className={ADMIN_BUTTON}>
                  {t("tags.mergeButton")}
                </button>
              </div>
            </Form>
          )}
        </section>
      )}
    </section>
  );
}
