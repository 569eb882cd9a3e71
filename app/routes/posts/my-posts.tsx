import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { EditorErrorBoundary } from "../../components/editor/error-boundary.tsx";
import { Link } from "../../lean/link.tsx";
import { formatDate } from "../../lib/format.ts";
import { useAdminStrings } from "../../lib/i18n/admin-strings.ts";
import { HTML_LANG } from "../../lib/i18n/locale.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { POST_STATUSES } from "../../lib/schemas/post.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import type { PostStatus } from "../../server/db/schema.server.ts";
import { listMyPosts } from "../../server/posts/my-posts.server.ts";
import type { Route } from "./+types/my-posts";

export const handle = routePolicy({ cache: "none" });

// `/posts/myPosts` (and /en, /zh): the signed-in admin's own posts, every status,
// most recently updated first, filtered by `?status=` and paged by `?page=`.

export const MY_POSTS_PAGE_SIZE = 20;

/** `?page=`: absent is 1; anything but a plain positive integer is null (→ 404). */
export function parsePage(raw: string | null): number | null {
  if (raw === null) return 1;
  return /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null;
}

/** `?status=`: one of the statuses, else null (all). */
export function parseStatus(raw: string | null): PostStatus | null {
  return (POST_STATUSES as readonly string[]).includes(raw ?? "") ? (raw as PostStatus) : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireAdmin(context, request);
  const { db } = getApp(context);
  const url = new URL(request.url);
  const page = parsePage(url.searchParams.get("page"));
  if (page === null) throw data(null, { status: 404 });
  const status = parseStatus(url.searchParams.get("status"));
  const locale = getRequest(context).locale;
  const list = await listMyPosts(db, { authorId: user.id, locale, status, page, pageSize: MY_POSTS_PAGE_SIZE });
  if (page > list.pageCount) throw data(null, { status: 404 });
  const prefix = getRequest(context).prefix;
  return { locale, list, status, prefix };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "editor:myPosts.title", [NOINDEX]);
}

const BADGE: Record<PostStatus, string> = {
  draft: "bg-zinc-100 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100",
  published: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100",
  scheduled: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
};

export default function MyPosts({ loaderData }: Route.ComponentProps) {
  useAdminStrings();
  const { t } = useTranslation("editor");
  const { locale, list, status, prefix } = loaderData;
  const base = `${prefix}/posts/myPosts`;
  const href = (s: PostStatus | null, page = 1) => {
    const q = new URLSearchParams();
    if (s) q.set("status", s);
    if (page > 1) q.set("page", String(page));
    const qs = q.toString();
    return qs ? `${base}?${qs}` : base;
  };
  const filters: Array<{ value: PostStatus | null; label: string; count: number }> = [
    { value: null, label: t("myPosts.all"), count: list.counts.all },
    ...POST_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`), count: list.counts[s] })),
  ];
  const createLink = (
    <Link
      to={`${prefix}/posts/createPost`}
      className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
    >
      {t("myPosts.create")}
    </Link>
  );

  return (
    <section aria-labelledby="my-posts-title" className="space-y-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="my-posts-title" className="text-2xl font-bold">
          {t("myPosts.title")}
        </h1>
        {createLink}
      </header>

      <nav aria-label={t("myPosts.filterLabel")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {filters.map((f) => (
            <li key={f.value ?? "all"}>
              <Link
                to={href(f.value)}
                aria-current={f.value === status ? "page" : undefined}
                className="block rounded-full border border-zinc-300 px-3 py-1 hover:bg-zinc-50 aria-[current]:border-blue-700 aria-[current]:bg-blue-700 aria-[current]:text-white dark:border-zinc-700 dark:hover:bg-zinc-900"
              >
                {t("myPosts.count", { label: f.label, count: f.count })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {list.items.length === 0 ? (
        <div className="space-y-4 rounded-md border border-dashed border-zinc-300 p-8 text-center dark:border-zinc-700">
          <p>{status ? t("myPosts.emptyFiltered") : t("myPosts.empty")}</p>
          {!status && <p>{createLink}</p>}
        </div>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-zinc-200 text-zinc-600 dark:border-zinc-800 dark:text-zinc-400">
              <tr>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("myPosts.colTitle")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("myPosts.colStatus")}
                </th>
                <th scope="col" className="py-2 pr-4 font-medium">
                  {t("myPosts.colUpdated")}
                </th>
                <th scope="col" className="py-2 font-medium">
                  {t("myPosts.colActions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((post) => {
                const title = post.title || t("myPosts.untitled");
                return (
                  <tr key={post.id} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                    <td className="py-3 pr-4">
                      <Link
                        to={`${prefix}/posts/edit/${post.id}`}
                        lang={post.isFallback ? HTML_LANG[post.titleLocale] : undefined}
                        className="font-medium hover:underline"
                      >
                        {title}
                      </Link>
                      {post.isFallback && (
                        <span className="ml-2 rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">
                          {post.titleLocale === "en" ? t("myPosts.inEnglish") : t("myPosts.inChinese")}
                        </span>
                      )}
                    </td>
                    <td className="py-3 pr-4">
                      <span
                        data-testid="status-badge"
                        className={`inline-block rounded px-2 py-0.5 text-xs font-medium ${BADGE[post.status]}`}
                      >
                        {t(`status.${post.status}`)}
                      </span>
                      {post.status === "scheduled" && post.publishedAt && (
                        <span className="mt-1 block text-xs text-zinc-600 dark:text-zinc-400">
                          {t("myPosts.scheduledFor", { date: formatDate(post.publishedAt, locale) })}
                        </span>
                      )}
                    </td>
                    <td className="py-3 pr-4">
                      <time dateTime={post.updatedAt}>{formatDate(post.updatedAt, locale)}</time>
                    </td>
                    <td className="space-x-3 py-3 whitespace-nowrap">
                      <Link
                        to={`${prefix}/posts/edit/${post.id}`}
                        aria-label={t("myPosts.editLabel", { title })}
                        className="text-blue-700 underline dark:text-blue-400"
                      >
                        {t("myPosts.edit")}
                      </Link>
                      <Link
                        to={`${prefix}/posts/detail/${post.id}`}
                        aria-label={t("myPosts.viewLabel", { title })}
                        className="text-blue-700 underline dark:text-blue-400"
                      >
                        {t("myPosts.view")}
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {list.pageCount > 1 && (
        <nav aria-label={t("myPosts.pagination")} className="flex items-center justify-between text-sm">
          {list.page > 1 ? (
            <Link to={href(status, list.page - 1)} rel="prev" className="text-blue-700 underline dark:text-blue-400">
              {t("myPosts.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span aria-current="page">{t("myPosts.pageOf", { page: list.page, count: list.pageCount })}</span>
          {list.page < list.pageCount ? (
            <Link to={href(status, list.page + 1)} rel="next" className="text-blue-700 underline dark:text-blue-400">
              {t("myPosts.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <EditorErrorBoundary error={error} />;
}
