import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useSubmit } from "react-router";
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
import { formatDateTime } from "../../lib/format.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import { deleteSlide, getSlide, listSlidesForAdmin, moveSlide } from "../../server/repos/swapers.server.ts";
import type { Route } from "./+types/swapers";

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(context, request);
  const { db } = getApp(context);
  const { q, page, url } = listQuery(request);
  const list = await listSlidesForAdmin(db, { q, page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirmDelete");
  const confirming = confirmId ? ((await getSlide(db, confirmId)) ?? null) : null;
  return { list, q, confirming, locale: getRequest(context).locale, offset: (list.page - 1) * PAGE_SIZE };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const slide = id ? await getSlide(app.db, id) : undefined;
  if (!slide) return data({ error: "admin:errors.notFound" }, { status: 404 });
  const back = safeBack(form.get("back"), "/admin/swapers");
  const title = slide.titleEn || slide.titleZh;

  if (intent === "move") {
    const position = Number(form.get("position"));
    if (!Number.isSafeInteger(position) || position < 0)
      return data({ error: "admin:errors.orderInvalid" }, { status: 400 });
    await app.db.transaction().execute(async (trx) => {
      await moveSlide(trx, id, position);
      await audit(trx, admin, "swaper.move", { type: "swaper", id }, { title, position });
    });
    return redirect(back);
  }
  if (intent === "delete") {
    await app.db.transaction().execute(async (trx) => {
      await deleteSlide(trx, id);
      await audit(trx, admin, "swaper.delete", { type: "swaper", id }, { title });
    });
    return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "flash.deleted") });
  }
  return data({ error: "admin:errors.notFound" }, { status: 400 });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "admin:swapers.title", [NOINDEX]);
}

export default function SwapersAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const submit = useSubmit();
  // Drag and drop reorders with the mouse; the ↑/↓ buttons are the keyboard way.
  const [dragged, setDragged] = useState<string | null>(null);
  const { t } = useTranslation("admin");
  const m = useMessage();
  const { list, q, confirming, locale, offset } = loaderData;
  const { back, withParams } = useListUrls("/admin/swapers");
  const name = (s: { titleEn: string; titleZh: string }) =>
    (locale === "en" ? s.titleEn || s.titleZh : s.titleZh || s.titleEn) || t("swapers.untitled");
  const windowText = (s: { startsAt: string | null; endsAt: string | null }) => {
    const from = s.startsAt ? formatDateTime(s.startsAt, locale) : null;
    const until = s.endsAt ? formatDateTime(s.endsAt, locale) : null;
    if (from && until) return t("swapers.between", { from, until });
    if (from) return t("swapers.from", { date: from });
    if (until) return t("swapers.until", { date: until });
    return t("swapers.always");
  };
  const button = ADMIN_BUTTON;

  return (
    <section aria-labelledby="swapers-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="swapers-title" className="text-3xl font-bold tracking-tight">
          {t("swapers.title")}
        </h1>
        <Link
          to="/admin/swapers/new"
          className="rounded-md bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
        >
          {t("swapers.new")}
        </Link>
      </div>
      <p className="text-zinc-700 dark:text-zinc-300">{t("swapers.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("swapers.deleteConfirm", { title: name(confirming) })} id={confirming.id} back={back} />
      )}

      <AdminSearch id="swapers-q" label={t("swapers.search")} button={t("list.search")} q={q} />

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q ? t("swapers.noMatch", { q }) : t("swapers.empty")}</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-zinc-200 dark:border-zinc-800">
              <th scope="col" className="py-2 pr-3">
                {t("swapers.order")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("swapers.image")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("swapers.titleCol")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("swapers.status")}
              </th>
              <th scope="col" className="py-2 pr-3">
                {t("swapers.window")}
              </th>
              <th scope="col" className="py-2">
                {t("swapers.actions")}
              </th>
            </tr>
          </thead>
          <tbody>
            {list.items.map((slide, i) => {
              const position = offset + i;
              const title = name(slide);
              return (
                <tr
                  key={slide.id}
                  draggable
                  data-testid="slide-row"
                  onDragStart={(event) => {
                    setDragged(slide.id);
                    event.dataTransfer.effectAllowed = "move";
                  }}
                  onDragEnd={() => setDragged(null)}
                  onDragOver={(event) => {
                    if (dragged && dragged !== slide.id) event.preventDefault();
                  }}
                  onDrop={(event) => {
                    event.preventDefault();
                    if (!dragged || dragged === slide.id) return;
                    submit({ intent: "move", id: dragged, position: String(position), back }, { method: "post" });
                    setDragged(null);
                  }}
                  className={`cursor-move border-b border-zinc-100 align-middle dark:border-zinc-900 ${
                    dragged === slide.id ? "opacity-50" : ""
                  }`}
                >
                  <td className="py-2 pr-3 tabular-nums">{position + 1}</td>
                  <td className="py-2 pr-3">
                    <img
                      src={slide.imageUrl}
                      alt={slide.imageAlt}
                      width={96}
                      height={36}
                      className="h-9 w-24 rounded object-cover"
                      loading="lazy"
                    />
                  </td>
                  <td className="py-2 pr-3">{title}</td>
                  <td className="py-2 pr-3">{slide.enabled ? t("swapers.enabled") : t("swapers.disabled")}</td>
                  <td className="py-2 pr-3">{windowText(slide)}</td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-2">
                      <MoveButtons
                        id={slide.id}
                        position={position}
                        total={list.total}
                        back={back}
                        upLabel={t("swapers.moveUp", { title })}
                        downLabel={t("swapers.moveDown", { title })}
                      />
                      <Link
                        to={`/admin/swapers/${slide.id}`}
                        className={button}
                        aria-label={t("swapers.editLink", { title })}
                      >
                        {t("swapers.editAction")}
                      </Link>
                      <Link
                        to={withParams({ confirmDelete: slide.id })}
                        className={`${button} text-red-700 dark:text-red-400`}
                      >
                        {t("swapers.delete")}
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
