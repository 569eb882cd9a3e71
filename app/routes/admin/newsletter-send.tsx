import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { useListUrls } from "../../components/admin/list-parts.tsx";
import { AdminTable } from "../../components/admin/list-table.tsx";
import {
  SendProgressBar,
  SendStatusText,
  SendTitle,
  useLiveRefresh,
  useSendTitleText,
} from "../../components/admin/newsletter-parts.tsx";
import { useDateTimeFormatter } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { SEND_COUNT_KEYS, sendInFlight, titleFor } from "../../lib/admin-newsletter.ts";
import { i18nFor } from "../../lib/i18n/i18n.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { failedMailsForSend, getSendForAdmin } from "../../server/newsletter/admin-newsletter.server.ts";
import type { Route } from "./+types/newsletter-send";

const PAGE_SIZE = 50;

export async function loader(args: Route.LoaderArgs) {
  const { app, page, locale } = await adminListRequest(args);
  const id = args.params.sendId;
  const send = /^[0-9a-z]{20}$/.test(id) ? await getSendForAdmin(app.db, id) : null;
  if (!send) throw data(null, { status: 404 });
  const failed = await failedMailsForSend(app.db, send.id, { page, pageSize: PAGE_SIZE });
  return { send, failed, locale, live: sendInFlight(send) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  if (!loaderData) return pageMeta(matches, "adminNewsletter:title", [NOINDEX]);
  const { t } = i18nFor(loaderData.locale);
  const title = titleFor(loaderData.send.titles, loaderData.locale)?.title ?? t("adminNewsletter:sends.deletedPost");
  return pageMeta(matches, { text: t("adminNewsletter:send.heading", { title }) }, [NOINDEX]);
}

export default function NewsletterSend({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("adminNewsletter");
  const { send, failed, locale, live } = loaderData;
  const { withParams } = useListUrls(`/admin/newsletter/${send.id}`);
  const title = useSendTitleText(send.titles, locale);
  const formatDateTime = useDateTimeFormatter(locale);
  useLiveRefresh(live, loaderData);

  return (
    <section aria-labelledby="send-title" className="space-y-8">
      <p>
        <Link to="/admin/newsletter" className="text-blue-800 underline dark:text-blue-300">
          {t("send.back")}
        </Link>
      </p>
      <div className="space-y-2">
        <h1 id="send-title" className="text-3xl font-bold tracking-tight">
          {t("send.heading", { title })}
        </h1>
        <p className="text-zinc-700 dark:text-zinc-300">
          <SendTitle postId={send.postId} titles={send.titles} locale={locale} />
          {" · "}
          {t("send.started", { date: formatDateTime(send.createdAt) })}
          {" · "}
          <SendStatusText status={send.status} counts={send.counts} />
        </p>
      </div>

      <div className="space-y-3">
        <SendProgressBar
          label={t("sends.progressLabel", { title })}
          recipients={send.recipients}
          counts={send.counts}
        />
        <dl aria-label={t("send.countsCaption")} className="grid max-w-xl grid-cols-4 gap-3">
          {SEND_COUNT_KEYS.map((key) => (
            <div key={key} className="rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
              <dt className="text-sm text-zinc-700 dark:text-zinc-300">{t(`sends.col.${key}`)}</dt>
              <dd className="text-xl font-semibold tabular-nums">{send.counts[key]}</dd>
            </div>
          ))}
        </dl>
      </div>

      <section aria-labelledby="send-failed" className="space-y-3">
        <h2 id="send-failed" className="text-xl font-semibold">
          {t("send.failedTitle")}
        </h2>
        <AdminTable
          caption={t("send.failedCaption")}
          rowCount={failed.items.length}
          empty={t("send.noFailures")}
          pagination={{ page: failed.page, pageCount: failed.pageCount, withParams }}
          columns={[t("send.col.recipient"), t("send.col.error"), { label: t("send.col.attempts"), numeric: true }]}
        >
          {failed.items.map((mail) => (
            <tr key={mail.id} className="border-b border-zinc-100 align-top dark:border-zinc-900">
              <td className="py-2 pr-3 break-all">{mail.recipient}</td>
              <td className="py-2 pr-3 font-mono text-xs break-words whitespace-pre-wrap">
                {mail.lastError ?? t("send.noReply")}
              </td>
              <td className="py-2 text-right tabular-nums">{mail.attempts}</td>
            </tr>
          ))}
        </AdminTable>
      </section>
    </section>
  );
}
