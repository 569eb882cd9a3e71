import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AdminTable, RowLink, useListUrls } from "../../components/admin/list-parts.tsx";
import {
  SendProgressBar,
  SendStatusText,
  SendTitle,
  useLiveRefresh,
  useSendTitleText,
} from "../../components/admin/newsletter-parts.tsx";
import { SEND_COUNT_KEYS, sendInFlight } from "../../lib/admin-newsletter.ts";
import { formatDateTime } from "../../lib/format.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { type AdminSend, listSendsForAdmin, newsletterAudience } from "../../server/repos/admin-newsletter.server.ts";
import type { Route } from "./+types/newsletter";

const PAGE_SIZE = 20;

export async function loader(args: Route.LoaderArgs) {
  const { app, page, locale } = await adminListRequest(args);
  const [audience, sends] = await Promise.all([
    newsletterAudience(app.db),
    listSendsForAdmin(app.db, { page, pageSize: PAGE_SIZE }),
  ]);
  return { audience, sends, locale, live: sends.items.some(sendInFlight) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminNewsletter:title", [NOINDEX]);
}

export default function NewsletterAdmin({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminNewsletter");
  const { audience, sends, locale, live } = loaderData;
  const { withParams } = useListUrls("/admin/newsletter");
  useLiveRefresh(live, loaderData);

  const figures = [
    { key: "confirmed", value: audience.confirmed, strong: true },
    { key: "en", value: audience.en },
    { key: "zh", value: audience.zh },
    { key: "both", value: audience.both },
    { key: "bounced", value: audience.bounced },
    { key: "pending", value: audience.pending },
  ] as const;

  return (
    // Not a labelled region: the footer's subscribe box is already the "Newsletter" landmark.
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 id="newsletter-title" className="text-3xl font-bold tracking-tight">
          {t("title")}
        </h1>
        <p className="text-zinc-700 dark:text-zinc-300">{t("intro")}</p>
      </div>

      <section aria-labelledby="newsletter-audience" className="space-y-3">
        <h2 id="newsletter-audience" className="text-xl font-semibold">
          {t("audience.title")}
        </h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
          {figures.map((f) => (
            <div key={f.key} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
              <dt className="text-sm text-zinc-700 dark:text-zinc-300">{t(`audience.${f.key}`)}</dt>
              <dd className={`tabular-nums ${"strong" in f ? "text-2xl font-bold" : "text-xl font-semibold"}`}>
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
        <p>
          <Link to="/admin/subscribers" className="text-blue-800 underline dark:text-blue-300">
            {t("audience.manage")}
          </Link>
        </p>
      </section>

      <section aria-labelledby="newsletter-sends" className="space-y-3">
        <h2 id="newsletter-sends" className="text-xl font-semibold">
          {t("sends.title")}
        </h2>
        <AdminTable
          caption={t("sends.caption")}
          rowCount={sends.items.length}
          empty={t("sends.empty")}
          pagination={{ page: sends.page, pageCount: sends.pageCount, withParams }}
          columns={[
            t("sends.col.post"),
            t("sends.col.started"),
            t("sends.col.status"),
            ...SEND_COUNT_KEYS.map((key) => ({ label: t(`sends.col.${key}`), numeric: true })),
            t("sends.col.progress"),
            t("sends.col.details"),
          ]}
        >
          {sends.items.map((send) => (
            <SendRow key={send.id} send={send} locale={locale} />
          ))}
        </AdminTable>
      </section>
    </div>
  );
}

function SendRow({ send, locale }: { send: AdminSend; locale: Locale }) {
  const { t } = useTranslation("adminNewsletter");
  const title = useSendTitleText(send.titles, locale);
  return (
    <tr className="border-b border-zinc-100 dark:border-zinc-900">
      <th scope="row" className="py-2 pr-3 font-normal">
        <SendTitle postId={send.postId} titles={send.titles} locale={locale} />
      </th>
      <td className="py-2 pr-3 whitespace-nowrap">{formatDateTime(send.createdAt, locale)}</td>
      <td className="py-2 pr-3">
        <SendStatusText status={send.status} counts={send.counts} />
      </td>
      {SEND_COUNT_KEYS.map((key) => (
        <td key={key} className="py-2 pr-3 text-right tabular-nums">
          {send.counts[key]}
        </td>
      ))}
      <td className="py-2 pr-3">
        <SendProgressBar
          label={t("sends.progressLabel", { title })}
          recipients={send.recipients}
          counts={send.counts}
        />
      </td>
      <td className="py-2">
        <RowLink
          to={`/admin/newsletter/${send.id}`}
          text={t("sends.details")}
          label={t("sends.detailsLabel", { title })}
        />
      </td>
    </tr>
  );
}
