import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { BUTTON_SECONDARY, dateTimeFormatter, LINK } from "../../components/editor/editor-ui.ts";
import { EditorErrorBoundary } from "../../components/editor/error-boundary.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { isRecordId } from "../../lib/ids.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { loadPostForEdit } from "../../server/posts/post-editor.server.ts";
import { currentRevisionId, listRevisions } from "../../server/posts/revisions.server.ts";
import type { Route } from "./+types/history";

export const handle = routePolicy({ cache: "none" });

// `/posts/edit/{postId}/history` (and /en, /zh): the revisions of any post (decision 028),
// newest first. Choosing two (a plain GET form, so it works without JavaScript) goes to
// `/posts/edit/{postId}/history/{a}...{b}`, where a revision can be restored.

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await requireAdmin(context, request);
  const { db } = getApp(context);
  const { locale, prefix } = getRequest(context);
  const post = await loadPostForEdit(db, params.postId, user);
  if (!post) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const a = url.searchParams.get("a");
  const b = url.searchParams.get("b");
  let pickTwo = false;
  if (a !== null || b !== null) {
    if (isRecordId(a) && isRecordId(b) && a !== b)
      throw redirect(`${prefix}/posts/edit/${post.id}/history/${a}...${b}`);
    pickTwo = true;
  }
  const [revisions, current] = await Promise.all([listRevisions(db, post.id), currentRevisionId(db, post.id)]);
  const title = post.translations[locale]?.title ?? post.translations.en?.title ?? post.translations.zh?.title ?? "";
  const result = {
    locale,
    prefix,
    post: { id: post.id, title, live: post.status === "published" },
    revisions,
    current,
    pickTwo,
  };
  return pickTwo ? data(result, { status: 400 }) : result;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "editor:history.title", [NOINDEX]);
}

export default function HistoryPage({ loaderData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("editor");
  const { locale, prefix, post, revisions, current, pickTwo } = loaderData;
  const format = dateTimeFormatter(locale, true);
  const base = `${prefix}/posts/edit/${post.id}/history`;
  const who = (name: string | null) => name ?? t("history.unknownAuthor");

  return (
    <section aria-labelledby="history-title" className="space-y-6">
      <header className="flex flex-wrap items-baseline justify-between gap-4">
        <h1 id="history-title" className="text-2xl font-bold">
          {t("history.heading", { title: post.title })}
        </h1>
        <nav className="flex gap-4 text-sm">
          <Link to={`${prefix}/posts/edit/${post.id}`} className={LINK}>
            {t("history.backToEditor")}
          </Link>
        </nav>
      </header>
      <p className="text-zinc-700 dark:text-zinc-300">{t("history.intro")}</p>
      {pickTwo && <FormAlert>{t("history.pickTwo")}</FormAlert>}
      {revisions.length === 0 ? (
        <p>{t("history.empty")}</p>
      ) : (
        <Form method="get" className="space-y-4">
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                <th scope="col" className="py-2 pr-3">
                  {t("history.colWhen")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colWho")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colStatus")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colNote")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colFrom")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colTo")}
                </th>
                <th scope="col" className="py-2 pr-3">
                  {t("history.colChanges")}
                </th>
              </tr>
            </thead>
            <tbody>
              {revisions.map((revision, i) => {
                const time = format(revision.updatedAt);
                const previous = revisions[i + 1];
                const note =
                  revision.kind === "pending" && i === 0
                    ? t("history.pending")
                    : revision.id === current
                      ? post.live
                        ? t("history.live")
                        : t("history.current")
                      : "";
                return (
                  <tr key={revision.id} className="border-b border-zinc-100 dark:border-zinc-900">
                    <td className="py-2 pr-3 tabular-nums">
                      <time dateTime={revision.updatedAt}>{time}</time>
                    </td>
                    <td className="py-2 pr-3">{who(revision.authorName)}</td>
                    <td className="py-2 pr-3">{t(`status.${revision.status}`)}</td>
                    <td className="py-2 pr-3">{note}</td>
                    <td className="py-2 pr-3">
                      <input
                        type="radio"
                        name="a"
                        value={revision.id}
                        defaultChecked={i === 1}
                        aria-label={t("history.fromLabel", { time })}
                      />
                    </td>
                    <td className="py-2 pr-3">
                      <input
                        type="radio"
                        name="b"
                        value={revision.id}
                        defaultChecked={i === 0}
                        aria-label={t("history.toLabel", { time })}
                      />
                    </td>
                    <td className="py-2 pr-3">
                      {previous && (
                        <Link
                          to={`${base}/${previous.id}...${revision.id}`}
                          className={LINK}
                          aria-label={t("history.changesLabel", { time })}
                        >
                          {t("history.changes")}
                        </Link>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {revisions.length > 1 && (
            <button type="submit" className={BUTTON_SECONDARY}>
              {t("history.compare")}
            </button>
          )}
        </Form>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <EditorErrorBoundary error={error} />;
}
