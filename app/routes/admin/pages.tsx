import { useTranslation } from "react-i18next";
import {
  AdminListHeader,
  AdminPagination,
  AdminSearch,
  ConfirmDelete,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { EditDeleteLinks } from "../../components/admin/list-table.tsx";
import {
  CardCell,
  CardRow,
  CardTable,
  EmptyState,
  LanguageBadges,
  ShortTime,
  StatusLabel,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { refuse, rowActions } from "../../server/admin/row-actions.server.ts";
import { deletePage, getPage, listPagesForAdmin, type PageRow } from "../../server/pages/pages.server.ts";
import type { Route } from "./+types/pages";

// `/admin/pages`: the owner's pages (docs/decisions/035-pages-and-menus.md), with the same
// list parts as the posts. Admins only (the loader and the action check).

const PAGE_SIZE = 20;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const list = await listPagesForAdmin(app.db, { q, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getPage(app.db, id));
  return { list, q, confirming, locale };
}

export const action = rowActions<PageRow>({
  type: "page",
  listPath: "/admin/pages",
  load: getPage,
  title: (page) => page.slug,
  intents: {
    delete: {
      apply: async (trx, page) => {
        const outcome = await deletePage(trx, page.id);
        return outcome === "system" ? refuse("adminPages:errors.systemPage") : undefined;
      },
      flash: "flash.deleted",
    },
  },
});

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminPages:list.title", [NOINDEX]);
}

/** The title a row shows: the admin's language first, else the other. */
function titleOf(page: PageRow, locale: Locale): string {
  return (locale === "en" ? page.titleEn || page.titleZh : page.titleZh || page.titleEn) || page.slug;
}

export default function PagesAdmin({ loaderData, actionData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("adminPages");
  const m = useMessage();
  const zone = useListTimeZone();
  const { list, q, confirming, locale } = loaderData;
  const { back, withParams } = useListUrls("/admin/pages");
  const columns = [
    { label: t("list.titleColumn") },
    { label: t("list.address") },
    { label: t("list.status") },
    { label: t("list.languages") },
    { label: t("list.updated", { zone }) },
    { label: t("list.actions") },
  ];

  return (
    <section aria-labelledby="pages-admin-title" className="space-y-6">
      <AdminListHeader
        id="pages-admin-title"
        title={t("list.title")}
        create={{ to: "/admin/pages/new", label: t("list.new") }}
      />
      <p className="text-zinc-700 dark:text-zinc-300">{t("list.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}
      {confirming && (
        <ConfirmDelete
          text={t("list.deleteConfirm", { title: titleOf(confirming, locale) })}
          id={confirming.id}
          back={back}
        />
      )}
      <AdminSearch id="pages-q" label={t("list.search")} button={t("list.searchButton")} q={q} />
      {list.items.length === 0 ? (
        <EmptyState
          text={q ? t("list.noMatch", { q }) : t("list.empty")}
          action={q ? undefined : { to: "/admin/pages/new", label: t("list.new") }}
        />
      ) : (
        <CardTable columns={columns} testId="pages-table">
          {list.items.map((page) => {
            const title = titleOf(page, locale);
            const languages = (["en", "zh"] as const).filter((l) => (l === "en" ? page.titleEn : page.titleZh) !== "");
            return (
              <CardRow key={page.id} testId={`page-row-${page.slug}`}>
                <CardCell label={columns[0]?.label ?? ""} bare>
                  <Link
                    to={`/admin/pages/${page.id}`}
                    className="font-medium text-blue-700 underline dark:text-blue-400"
                  >
                    {title}
                  </Link>
                </CardCell>
                <CardCell label={columns[1]?.label ?? ""}>
                  {page.status === "published" ? (
                    <Link to={`/${page.slug}`} className="break-all underline">
                      /{page.slug}
                    </Link>
                  ) : (
                    <span className="break-all">/{page.slug}</span>
                  )}
                </CardCell>
                <CardCell label={columns[2]?.label ?? ""}>
                  <StatusLabel tone={page.status === "published" ? "green" : "zinc"}>
                    {t(`status.${page.status}`)}
                  </StatusLabel>
                </CardCell>
                <CardCell label={columns[3]?.label ?? ""}>
                  <LanguageBadges languages={languages} />
                </CardCell>
                <CardCell label={columns[4]?.label ?? ""}>
                  <ShortTime iso={page.updatedAt} locale={locale} zone={zone} />
                </CardCell>
                <CardCell label={columns[5]?.label ?? ""} bare>
                  {page.systemKey ? (
                    <Link to={`/admin/pages/${page.id}`} className="underline">
                      {t("list.edit")}
                    </Link>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <EditDeleteLinks
                        name={title}
                        editTo={`/admin/pages/${page.id}`}
                        deleteTo={withParams({ confirmDelete: page.id })}
                      />
                    </div>
                  )}
                </CardCell>
              </CardRow>
            );
          })}
        </CardTable>
      )}
      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
