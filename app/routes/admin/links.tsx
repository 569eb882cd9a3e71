import { useTranslation } from "react-i18next";
import { data, Link, redirect } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  AdminSearch,
  ConfirmDelete,
  listQuery,
  MoveButtons,
  safeBack,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp } from "../../server/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import { deleteLink, getLink, listLinksForAdmin, moveLink } from "../../server/repos/links.server.ts";
import { getSiteSettings } from "../../server/repos/site-settings.server.ts";
import type { Route } from "./+types/links";

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const { q, page, url } = listQuery(request);
  const [list, settings] = await Promise.all([
    listLinksForAdmin(db, { q, page, pageSize: PAGE_SIZE }),
    getSiteSettings(db),
  ]);
  const confirmId = url.searchParams.get("confirmDelete");
  const confirming = confirmId ? ((await getLink(db, confirmId)) ?? null) : null;
  return { list, q, confirming, offset: (list.page - 1) * PAGE_SIZE, footerLinks: settings.footerLinks };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const link = id ? await getLink(app.db, id) : undefined;
  if (!link) return data({ error: "admin:errors.notFound" }, { status: 404 });
  const back = safeBack(form.get("back"), "/admin/links");

  if (intent === "move") {
    const position = Number(form.get("position"));
    if (!Number.isSafeInteger(position) || position < 0)
      return data({ error: "admin:errors.orderInvalid" }, { status: 400 });
    await app.db.transaction().execute(async (trx) => {
      await moveLink(trx, id, position);
      await audit(trx, admin, "link.move", { type: "link", id }, { title: link.name, position });
    });
    return redirect(back);
  }
  if (intent === "delete") {
    await app.db.transaction().execute(async (trx) => {
      await deleteLink(trx, id);
      await audit(trx, admin, "link.delete", { type: "link", id }, { title: link.name });
    });
    return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "flash.deleted") });
  }
  return data({ error: "admin:errors.notFound" }, { status: 400 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminLinks:links.title", [NOINDEX]);
}

export default function LinksAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminLinks");
  const { t: ta } = useTranslation("admin");
  const m = useMessage();
  const { list, q, confirming, offset, footerLinks } = loaderData;
  const { back, withParams } = useListUrls("/admin/links");
  const button = ADMIN_BUTTON;

  return (
    <section aria-labelledby="links-admin-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="links-admin-title" className="text-3xl font-bold tracking-tight">
          {t("links.title")}
        </h1>
        <Link
          to="/admin/links/new"
          className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
        >
          {t("links.new")}
        </Link>
      </div>
      <p className="text-zinc-700 dark:text-zinc-300">
        {t("links.intro")} {footerLinks ? t("links.footerOn") : t("links.footerOff")}
      </p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("links.deleteConfirm", { name: confirming.name })} id={confirming.id} back={back} />
      )}

      <AdminSearch id="links-q" label={t("links.search")} button={ta("list.search")} q={q} />

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q ? t("links.noMatch", { q }) : t("links.empty")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-3">
                {t("links.order")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("links.name")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("links.url")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("links.status")}
              </th>
              <th scope="col" className="py-2">
                {t("links.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((link, i) => {
              const position = offset + i;
              return (
                <tr key={link.id} className="border-b border-zinc-100 align-middle dark:border-zinc-900">
                  <td className="py-2 pr-3 tabular-nums">{position + 1}</td>
                  <td className="py-2 pr-3">{link.name}</td>
                  <td className="max-w-xs truncate py-2 pr-3">{link.url}</td>
                  <td className="py-2 pr-3">{link.enabled ? t("links.enabled") : t("links.disabled")}</td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-2">
                      <MoveButtons
                        id={link.id}
                        position={position}
                        total={list.total}
                        back={back}
                        upLabel={t("links.moveUp", { name: link.name })}
                        downLabel={t("links.moveDown", { name: link.name })}
                      />
                      <Link
                        to={`/admin/links/${link.id}`}
                        className={button}
                        aria-label={t("links.editLink", { name: link.name })}
                      >
                        {t("links.editAction")}
                      </Link>
                      <Link
                        to={withParams({ confirmDelete: link.id })}
                        className={`${button} text-red-700 dark:text-red-400`}
                        aria-label={t("links.deleteLink", { name: link.name })}
                      >
                        {ta("list.delete")}
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
