import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  AdminSearch,
  ConfirmDelete,
  listQuery,
  safeBack,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { TERM_SORTS, termBasePath, termKind, termName } from "../../lib/terms.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import {
  deleteCategory,
  deleteTag,
  getTerm,
  listCategories,
  listTermsForAdmin,
} from "../../server/repos/taxonomy.server.ts";
import type { Route } from "./+types/terms";

const PAGE_SIZE = 25;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const kind = termKind(request);
  const { q, page, url } = listQuery(request);
  const sort = url.searchParams.get("sort") ?? "";
  const list = await listTermsForAdmin(db, kind, { q, sort, page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirmDelete");
  const confirming = confirmId ? ((await getTerm(db, kind, confirmId)) ?? null) : null;
  // Where a deleted category's posts can go.
  const moveTargets =
    confirming && kind === "category" ? (await listCategories(db)).filter((c) => c.id !== confirming.id) : [];
  return {
    kind,
    list,
    q,
    sort: (TERM_SORTS as readonly string[]).includes(sort) ? sort : "order",
    confirming,
    moveTargets,
    locale: getRequest(context).locale,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const kind = termKind(request);
  const form = await request.formData();
  const id = String(form.get("id") ?? "");
  const term = id ? await getTerm(app.db, kind, id) : undefined;
  if (!term || form.get("intent") !== "delete") return data({ error: "admin:errors.notFound" }, { status: 404 });
  const back = safeBack(form.get("back"), termBasePath(kind));
  const moveTo = String(form.get("moveTo") ?? "") || null;
  if (kind === "category" && moveTo && !(await getTerm(app.db, "category", moveTo))) {
    return data({ error: "admin:errors.notFound" }, { status: 400 });
  }
  await app.db.transaction().execute(async (trx) => {
    if (kind === "category") await deleteCategory(trx, id, moveTo);
    else await deleteTag(trx, id);
    await audit(trx, admin, `${kind}.delete`, { type: kind, id }, { title: term.nameEn, moveTo });
  });
  return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "flash.deleted") });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageMeta(matches, loaderData?.kind === "tag" ? "admin:tags.title" : "admin:categories.title", [NOINDEX]);
}

export default function TermsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const m = useMessage();
  const { kind, list, q, sort, confirming, moveTargets, locale } = loaderData;
  const section = kind === "tag" ? "tags" : "categories";
  const path = termBasePath(kind);
  const { back, withParams } = useListUrls(path);
  const publicPath = kind === "tag" ? "/tags" : "/categories";

  return (
    <section aria-labelledby="terms-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="terms-title" className="text-3xl font-bold tracking-tight">
          {t(`${section}.title`)}
        </h1>
        <Link to={`${path}/new`} className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
          {t(`${section}.new`)}
        </Link>
      </div>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete
          text={t(`${section}.deleteConfirm`, { name: termName(confirming, locale), count: confirming.postCount })}
          id={confirming.id}
          back={back}
        >
          {kind === "category" && (
            <div className="space-y-1">
              <label htmlFor="move-to" className="block text-sm font-medium">
                {t("categories.moveTo")}
              </label>
              <select
                id="move-to"
                name="moveTo"
                className="rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <option value="">{t("categories.moveToNone")}</option>
                {moveTargets.map((c) => (
                  <option key={c.id} value={c.id}>
                    {termName(c, locale)}
                  </option>
                ))}
              </select>
            </div>
          )}
        </ConfirmDelete>
      )}

      <div className="flex flex-wrap items-end gap-6">
        <AdminSearch id="terms-q" label={t(`${section}.search`)} button={t("list.search")} q={q} />
        <Form method="get" className="flex items-end gap-2">
          {q && <input type="hidden" name="q" value={q} />}
          <div>
            <label htmlFor="terms-sort" className="block text-sm font-medium">
              {t("terms.sortBy")}
            </label>
            <select
              id="terms-sort"
              name="sort"
              defaultValue={sort}
              className="rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
            >
              {TERM_SORTS.map((key) => (
                <option key={key} value={key}>
                  {t(`terms.sort.${key}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={ADMIN_BUTTON}>
            {t("terms.sortButton")}
          </button>
        </Form>
      </div>

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q ? t(`${section}.noMatch`, { q }) : t(`${section}.empty`)}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-3">
                {t("terms.nameEn")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("terms.nameZh")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("terms.slug")}
              </th>
              {kind === "category" && (
                <th scope="col" className="py-2 pr-3">
                  {t("terms.sortOrder")}
                </th>
              )}
              <th scope="col" className="py-2 pr-3">
                {t("terms.posts")}
              </th>
              <th scope="col" className="py-2">
                {t("swapers.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((term) => {
              const name = termName(term, locale);
              return (
                <tr key={term.id} className="border-b border-zinc-100 dark:border-zinc-900">
                  <td className="py-2 pr-3">{term.nameEn}</td>
                  <td className="py-2 pr-3" lang="zh-CN">
                    {term.nameZh}
                  </td>
                  <td className="py-2 pr-3">
                    <code>{term.slug}</code>
                  </td>
                  {kind === "category" && <td className="py-2 pr-3 tabular-nums">{term.sortOrder}</td>}
                  <td className="py-2 pr-3 tabular-nums">{term.postCount}</td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-2">
                      <Link
                        to={`${path}/${term.id}`}
                        className={ADMIN_BUTTON}
                        aria-label={t("terms.editLink", { name })}
                      >
                        {t("terms.editAction")}
                      </Link>
                      <Link to={`${publicPath}/${term.slug}`} className={ADMIN_BUTTON}>
                        {t("terms.view")}
                      </Link>
                      <Link
                        to={withParams({ confirmDelete: term.id })}
                        className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                      >
                        {t("list.delete")}
                      </Link>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
