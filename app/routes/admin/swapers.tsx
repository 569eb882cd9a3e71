import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSubmit } from "react-router";
import {
  AdminListHeader,
  AdminSearch,
  ConfirmDelete,
  ShowingWindow,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { AdminTable, OrderedRowActions } from "../../components/admin/list-table.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import { deleteIntent, moveIntent, rowActions } from "../../server/admin/row-actions.server.ts";
import { deleteSlide, getSlide, listSlidesForAdmin, moveSlide } from "../../server/site/carousel.server.ts";
import type { Route } from "./+types/swapers";

const PAGE_SIZE = 20;

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const list = await listSlidesForAdmin(app.db, { q, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getSlide(app.db, id));
  return { list, q, confirming, locale, offset: (list.page - 1) * PAGE_SIZE };
}

export const action = rowActions({
  type: "swaper",
  listPath: "/admin/swapers",
  load: getSlide,
  title: (slide) => slide.titleEn || slide.titleZh,
  intents: { move: moveIntent(moveSlide), delete: deleteIntent(deleteSlide) },
});

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
  return (
    <section aria-labelledby="swapers-title" className="space-y-6">
      <AdminListHeader
        id="swapers-title"
        title={t("swapers.title")}
        create={{ to: "/admin/swapers/new", label: t("swapers.new") }}
      />
      <p className="text-zinc-700 dark:text-zinc-300">{t("swapers.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("swapers.deleteConfirm", { title: name(confirming) })} id={confirming.id} back={back} />
      )}

      <AdminSearch id="swapers-q" label={t("swapers.search")} button={t("list.search")} q={q} />

      <AdminTable
        columns={[
          t("swapers.order"),
          t("swapers.image"),
          t("swapers.titleCol"),
          t("swapers.status"),
          t("swapers.window"),
          t("swapers.actions"),
        ]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={q ? t("swapers.noMatch", { q }) : t("swapers.empty")}
      >
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
              <td className="py-2 pr-3">
                <ShowingWindow item={slide} locale={locale} />
              </td>
              <OrderedRowActions
                id={slide.id}
                name={title}
                position={position}
                total={list.total}
                back={back}
                editTo={`/admin/swapers/${slide.id}`}
                deleteTo={withParams({ confirmDelete: slide.id })}
              />
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}
