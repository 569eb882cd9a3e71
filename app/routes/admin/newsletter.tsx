import { useTranslation } from "react-i18next";
import { data, Form, useNavigation } from "react-router";
import { useListUrls } from "../../components/admin/list-parts.tsx";
import { AdminTable, RowLink } from "../../components/admin/list-table.tsx";
import {
  SendProgressBar,
  SendStatusText,
  SendTitle,
  useLiveRefresh,
  useSendTitleText,
} from "../../components/admin/newsletter-parts.tsx";
import { FormAlert, SelectField, SubmitButton } from "../../components/ui/field.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { SEND_COUNT_KEYS, sendInFlight } from "../../lib/admin-newsletter.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { adminListRequest } from "../../server/admin/list-request.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  type AdminSend,
  listSendsForAdmin,
  newsletterAudience,
} from "../../server/newsletter/admin-newsletter.server.ts";
import { postsForTest, queueNewsletterTest } from "../../server/newsletter/sends.server.ts";
import { newsletterContext } from "../../server/newsletter/worker.server.ts";
import type { Route } from "./+types/newsletter";

const PAGE_SIZE = 20;

type SendFilter = "all" | "failed";

// A test mail changes nothing readers see.
export const handle = routePolicy({ writes: "none" });

export async function loader(args: Route.LoaderArgs) {
  const { admin, app, page, locale, url } = await adminListRequest(args);
  // ?show=failed: only the sends with mails that failed for good (the dashboard links here).
  const show: SendFilter = url.searchParams.get("show") === "failed" ? "failed" : "all";
  const [audience, sends, testPosts] = await Promise.all([
    newsletterAudience(app.db),
    listSendsForAdmin(app.db, { page, pageSize: PAGE_SIZE, failedOnly: show === "failed" }),
    postsForTest(app.db, locale),
  ]);
  return { audience, sends, show, locale, live: sends.items.some(sendInFlight), testPosts, adminEmail: admin.email };
}

type TestResult = { ok: true; title: string } | { ok: false; error: "invalid" | "notFound" };

/** "Send a test to me": the chosen post's newsletter, in the chosen language, to the admin's own address. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const postId = String(form.get("postId") ?? "");
  const language = form.get("language");
  if (!/^[0-9a-z]{1,40}$/.test(postId) || (language !== "en" && language !== "zh"))
    return data<TestResult>({ ok: false, error: "invalid" }, { status: 400 });
  const outcome = await queueNewsletterTest(app.db, newsletterContext(app.env), app.mailer, {
    postId,
    to: admin.email,
    locale: language,
  });
  if (outcome === "notFound") return data<TestResult>({ ok: false, error: "notFound" }, { status: 404 });
  const post = (await postsForTest(app.db, language)).find((p) => p.id === postId);
  return data<TestResult>({ ok: true, title: post?.title ?? postId });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminNewsletter:title", [NOINDEX]);
}

export default function NewsletterAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminNewsletter");
  const { audience, sends, show, locale, live, testPosts, adminEmail } = loaderData;
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

      <TestSend posts={testPosts} email={adminEmail} locale={locale} result={actionData} />

      <section aria-labelledby="newsletter-sends" className="space-y-3">
        <h2 id="newsletter-sends" className="text-xl font-semibold">
          {t("sends.title")}
        </h2>
        <SendFilters show={show} />
        <AdminTable
          caption={t("sends.caption")}
          rowCount={sends.items.length}
          empty={show === "failed" ? t("sends.emptyFailed") : t("sends.empty")}
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

/** All sends, or only those with failed mails (`?show=failed`); the current one marked. */
function SendFilters({ show }: { show: SendFilter }) {
  const { t } = useTranslation("adminNewsletter");
  const { withParams } = useListUrls("/admin/newsletter");
  return (
    <nav aria-label={t("sends.filter.label")}>
      <ul className="flex flex-wrap gap-2 text-sm">
        {(["all", "failed"] as const).map((filter) => (
          <li key={filter}>
            <Link
              to={withParams({ show: filter, page: "1" })}
              aria-current={show === filter ? "page" : undefined}
              className="inline-block rounded-md px-3 py-1 hover:bg-zinc-100 aria-[current=page]:bg-zinc-200 aria-[current=page]:font-semibold dark:hover:bg-zinc-800 dark:aria-[current=page]:bg-zinc-800"
            >
              {t(`sends.filter.${filter}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
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
      <td className="py-2 pr-3 whitespace-nowrap">
        <LocalTime iso={send.createdAt} locale={locale} />
      </td>
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

/** "Send a test to me": any post, a draft too, as subscribers would get it, to the admin's own address. */
function TestSend(props: {
  posts: Array<{ id: string; title: string; status: "draft" | "published" | "scheduled" }>;
  email: string;
  locale: Locale;
  result: TestResult | undefined;
}) {
  const { t } = useTranslation("adminNewsletter");
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <section aria-labelledby="newsletter-test" className="space-y-3">
      <h2 id="newsletter-test" className="text-xl font-semibold">
        {t("test.title")}
      </h2>
      <p className="text-zinc-700 dark:text-zinc-300">{t("test.intro", { email: props.email })}</p>
      {props.posts.length === 0 ? (
        <p>{t("test.empty")}</p>
      ) : (
        <Form method="post" className="flex flex-wrap items-end gap-4">
          <div className="min-w-64 flex-1">
            <SelectField
              label={t("test.post")}
              name="postId"
              defaultValue={props.posts[0]?.id ?? ""}
              options={props.posts.map((p) => ({ value: p.id, label: `${p.title} (${t(`test.status.${p.status}`)})` }))}
            />
          </div>
          <SelectField
            label={t("test.language")}
            name="language"
            defaultValue={props.locale}
            options={[
              { value: "en", label: "English" },
              { value: "zh", label: "中文" },
            ]}
          />
          <SubmitButton busy={busy}>{t("test.submit")}</SubmitButton>
        </Form>
      )}
      {props.result?.ok === true && (
        <FormAlert tone="success">{t("test.sent", { title: props.result.title, email: props.email })}</FormAlert>
      )}
      {props.result?.ok === false && <FormAlert>{t(`test.errors.${props.result.error}`)}</FormAlert>}
    </section>
  );
}
