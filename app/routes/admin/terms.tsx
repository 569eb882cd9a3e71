import { useTranslation } from "react-i18next";
import {
  AdminListHeader,
  AdminSearch,
  AdminSortForm,
  ConfirmDelete,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { ActionsCell, AdminTable, EditDeleteLinks, RowLink } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { TERM_SORTS, termBasePath, termKind, termName } from "../../lib/terms.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { refuse, rowActions } from "../../server/admin/row-actions.server.ts";
import {
  deleteCategory,
  deleteTag,
  getTerm,
  listCategories,
  listTermsForAdmin,
} from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/terms";

const PAGE_SIZE = 25;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const kind = termKind(args.request);
  const sort = url.searchParams.get("sort") ?? "";
  const list = await listTermsForAdmin(app.db, kind, { q, sort, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getTerm(app.db, kind, id));
  // Where a deleted category's posts can go.
  const moveTargets =
    confirming && kind === "category" ? (await listCategories(app.db)).filter((c) => c.id !== confirming.id) : [];
  return {
    kind,
    list,
    q,
    sort: (TERM_SORTS as readonly string[]).includes(sort) ? sort : "order",
    confirming,
    moveTargets,
    locale,
  };
}

export async function action(args: Route.ActionArgs) {
  const kind = termKind(args.request);
  return rowActions({
    type: kind,
    listPath: termBasePath(kind),
    load: (db, id) => getTerm(db, kind, id),
    title: (term) => term.nameEn,
    intents: {
      delete: {
        apply: async (trx, term, form) => {
          // Where a deleted category's posts go: another category, or none.
          const moveTo = String(form.get("moveTo") ?? "") || null;
          if (kind === "category" && moveTo && !(await getTerm(trx, "category", moveTo))) {
            return refuse("admin:errors.notFound");
          }
          if (kind === "category") await deleteCategory(trx, term.id, moveTo);
          else await deleteTag(trx, term.id);
          return { moveTo };
        },
        flash: "flash.deleted",
      },
    },
  })(args);
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
      <AdminListHeader
        id="terms-title"
        title={t(`${section}.title`)}
        create={{ to: `${path}/new`, label: t(`${section}.new`) }}
      />
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
        <AdminSortForm
          id="terms-sort"
          label={t("terms.sortBy")}
          button={t("terms.sortButton")}
          sort={sort}
          sorts={TERM_SORTS.map((key) => ({ key, label: t(`terms.sort.${key}`) }))}
          q={q}
        />
      </div>

      <AdminTable
        columns={[
          t("terms.nameEn"),
          t("terms.nameZh"),
          t("terms.slug"),
          kind === "category" && t("terms.sortOrder"),
          t("terms.posts"),
          t("swapers.actions"),
        ]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q ? t(`${section}.noMatch`, { q }) : t(`${section}.empty`)}
      >
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
              <ActionsCell>
                <RowLink to={`${publicPath}/${term.slug}`} text={t("terms.view")} />
                <EditDeleteLinks
                  name={name}
                  editTo={`${path}/${term.id}`}
                  deleteTo={withParams({ confirmDelete: term.id })}
                />
              </ActionsCell>
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}
