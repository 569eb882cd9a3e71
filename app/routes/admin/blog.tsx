import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { Sparkline } from "../../components/admin/line-chart.tsx";
import { AdminPagination, ConfirmDelete, IntentButton, useListUrls } from "../../components/admin/list-parts.tsx";
import { RowLink, SelectAllBox } from "../../components/admin/list-table.tsx";
import {
  BULK_FORM,
  BulkBar,
  NEW_POST,
  PostFilters,
  PostsEmpty,
  SchedulePanel,
  STATUS_TONE,
} from "../../components/admin/post-list-parts.tsx";
import {
  BAR_BUTTON,
  CardCell,
  CardRow,
  CardTable,
  LanguageBadges,
  RowMenu,
  ShortTime,
  StatusLabel,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { OutdatedLabels } from "../../components/admin/translation-marks.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import { ADMIN_POST_STATUSES, oneOf } from "../../lib/admin-content.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { localDateTimeToIso } from "../../lib/schemas/post.ts";
import { termName } from "../../lib/terms.ts";
import { requireAdmin, type SessionUser } from "../../server/accounts/session.server.ts";
import { adminListRequest, safeBack } from "../../server/admin/list-request.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { lifecycleAnnounced } from "../../server/cache/page-tags.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { postViewsByDay } from "../../server/insights/report.server.ts";
import {
  BULK_POST_ACTIONS,
  type BulkPostChange,
  bulkChangePosts,
  changePost,
  getAdminPost,
  listPostAuthors,
  listPostsForAdmin,
  listTagOptions,
  type PostChange,
  purgePost,
} from "../../server/posts/admin-posts.server.ts";
import { canEditPost } from "../../server/posts/post-access.server.ts";
import { listCategories } from "../../server/taxonomy/taxonomy.server.ts";
import type { Route } from "./+types/blog";

const PAGE_SIZE = 20;
/** The views column's sparkline covers this many days. */
const SPARK_DAYS = 30;
const BASE = "/admin/blog";
const INTENTS = ["publish", "unpublish", "schedule", "feature", "unfeature", "trash", "restore", "purge"] as const;
/** How many posts one bulk action takes (a page is PAGE_SIZE; a hand-made form gets no more). */
const BULK_MAX = 100;
type Intent = (typeof INTENTS)[number];

export async function loader(args: Route.LoaderArgs) {
  const { admin, app, q, page, url, locale } = await adminListRequest(args);
  const { db } = app;
  const p = url.searchParams;
  const trash = p.get("view") === "trash";
  const filters = {
    status: oneOf(ADMIN_POST_STATUSES, p.get("status")),
    categoryId: p.get("category") || null,
    tagId: p.get("tag") || null,
    authorId: p.get("author") || null,
  };
  const [list, categories, tags, authors] = await Promise.all([
    listPostsForAdmin(db, { q, page, pageSize: PAGE_SIZE, sort: p.get("sort") ?? "", trash, locale, ...filters }),
    listCategories(db),
    listTagOptions(db),
    listPostAuthors(db),
  ]);
  const panelPost = async (name: string) => {
    const id = p.get(name);
    const post = id ? await getAdminPost(db, id, locale) : undefined;
    return post ?? null;
  };
  // Each row's views per day over the last SPARK_DAYS days (Insights), for its sparkline.
  const daily = await postViewsByDay(
    db,
    list.items.map((post) => post.id),
    { days: SPARK_DAYS },
  );
  const confirming = await panelPost("confirmDelete");
  const scheduling = await panelPost("schedule");
  return {
    // Every post, whoever wrote it: the title opens the editor for each one the admin may edit.
    list: {
      ...list,
      items: list.items.map((post) => ({
        ...post,
        editHref: canEditPost(admin, post) ? `/posts/edit/${post.id}` : null,
      })),
    },
    daily: Object.fromEntries(daily),
    q,
    trash,
    filters,
    categories: categories.map((c) => ({ id: c.id, name: termName(c, locale) })),
    tags: tags.map((t) => ({ id: t.id, name: termName(t, locale) })),
    authors,
    confirming,
    scheduling: scheduling && scheduling.deletedAt === null ? scheduling : null,
    locale,
  };
}

function change(intent: Exclude<Intent, "purge" | "schedule">): PostChange {
  if (intent === "feature" || intent === "unfeature") return { kind: "feature", featured: intent === "feature" };
  return { kind: intent };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  if (form.get("intent") === "bulk") return bulkAction(app, admin, form);
  const intent = oneOf(INTENTS, form.get("intent"));
  const id = String(form.get("id") ?? "");
  const post = id ? await getAdminPost(app.db, id) : undefined;
  if (!post || !intent || !canEditPost(admin, post))
    return data({ error: "admin:errors.notFound", field: null }, { status: 404 });
  const back = safeBack(form.get("back"), BASE);

  let postChange: PostChange | null = null;
  if (intent === "schedule") {
    const local = String(form.get("publishAtLocal") ?? "");
    const tz = Number(form.get("publishAtTz") ?? "0");
    const at = local ? localDateTimeToIso(local, Number.isSafeInteger(tz) && Math.abs(tz) <= 1440 ? tz : 0) : null;
    if (!at) return data({ error: "adminContent:errors.scheduleInvalid", field: "publishAt" }, { status: 400 });
    if (Date.parse(at) <= Date.now())
      return data({ error: "adminContent:errors.schedulePast", field: "publishAt" }, { status: 400 });
    postChange = { kind: "schedule", at };
  } else if (intent !== "purge") {
    postChange = change(intent);
  }

  // The post lifecycle writes the change, its audit entry and what it calls for (a newsletter).
  const done = postChange ? await changePost(app.db, admin, id, postChange) : await purgePost(app.db, admin, id);
  // A trashed post takes no changes but restore and purge; a live one cannot be purged.
  if (!done) return data({ error: "adminContent:errors.notApplicable", field: null }, { status: 409 });
  lifecycleAnnounced(getRequest(context));
  const deleted = intent === "trash" || intent === "purge";
  return redirect(back, {
    headers: flashHeaders(flashOptions(app.env), "success", deleted ? "flash.deleted" : "flash.saved"),
  });
}

/** What each bulk action leaves as the result message. */
const BULK_FLASH = {
  publish: "adminContent:flash.postsPublished",
  unpublish: "adminContent:flash.postsUnpublished",
  category: "adminContent:flash.postsMoved",
  trash: "adminContent:flash.postsTrashed",
} as const;

/**
 * The checked rows' action: every post is checked and changed in one post lifecycle, or none
 * is (a post out of reach refuses the lot).
 */
async function bulkAction(app: ReturnType<typeof getApp>, admin: SessionUser, form: FormData) {
  const bulk = oneOf(BULK_POST_ACTIONS, form.get("bulk"));
  const ids = [
    ...new Set(
      form
        .getAll("ids")
        .map(String)
        .filter((id) => id !== ""),
    ),
  ];
  const refuse = (error: string, status = 400) => data({ error, field: null }, { status });
  if (!bulk) return refuse("adminContent:errors.chooseAction");
  if (ids.length === 0) return refuse("adminContent:errors.choosePosts");
  if (ids.length > BULK_MAX) return refuse("adminContent:errors.tooManyPosts");
  const categoryId = String(form.get("categoryId") ?? "");
  if (bulk === "category" && categoryId === "") return refuse("adminContent:errors.chooseCategory");
  const change: BulkPostChange = bulk === "category" ? { kind: "category", categoryId } : { kind: bulk };
  const result = await bulkChangePosts(app.db, admin, admin, ids, change);
  if ("refused" in result)
    return result.refused === "noCategory"
      ? refuse("adminContent:errors.chooseCategory")
      : refuse("admin:errors.notFound", 404);
  return redirect(safeBack(form.get("back"), BASE), {
    headers: flashHeaders(flashOptions(app.env), "success", BULK_FLASH[bulk]),
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminContent:blog.title", [NOINDEX]);
}

/** A list URL without the panels (confirmation, schedule) open. */
function withoutPanels(url: string): string {
  const [path, query = ""] = url.split("?");
  const params = new URLSearchParams(query);
  params.delete("schedule");
  params.delete("confirmDelete");
  return `${path}${params.size ? `?${params}` : ""}`;
}

export default function BlogAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminContent");
  const m = useMessage();
  const { list, daily, q, trash, filters, categories, tags, authors, confirming, scheduling, locale } = loaderData;
  const { back: rawBack, withParams: rawWithParams } = useListUrls(BASE);
  const back = withoutPanels(rawBack);
  const withParams = (changes: Record<string, string>) => {
    const url = new URL(withoutPanels(rawWithParams({})), "http://x");
    for (const [k, v] of Object.entries(changes)) url.searchParams.set(k, v);
    return `${url.pathname}${url.search}`;
  };
  const zone = useListTimeZone();
  const titleOf = (post: { title: string }) => post.title || t("blog.untitled");
  const fieldError = actionData?.field === "publishAt" ? m(actionData.error) : null;
  const filtered = Boolean(q || filters.categoryId || filters.tagId || filters.authorId);
  const columns = [
    {
      label: t("blog.selectCol"),
      header: (
        <SelectAllBox
          key={list.items.map((p) => p.id).join()}
          name="ids"
          formId={BULK_FORM}
          label={t("blog.selectAll")}
          fallback={t("blog.selectCol")}
          labelClassName="sr-only max-md:not-sr-only max-md:ml-2 max-md:text-sm max-md:font-normal"
        />
      ),
      className: "md:w-8",
      onCards: true,
    },
    { label: t("blog.titleCol") },
    { label: t("blog.author") },
    { label: t("blog.status") },
    { label: t("blog.dateCol", { zone }) },
    { label: t("blog.views"), numeric: true },
    { label: t("blog.actions") },
  ];

  return (
    <section aria-labelledby="blog-title" className="min-w-0 space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="blog-title" className="text-3xl font-bold tracking-tight">
          {trash ? t("blog.trashTitle") : t("blog.title")}
        </h1>
        <nav aria-label={t("blog.viewSwitch")} className="flex flex-wrap gap-2 text-sm">
          <Link to={BASE} aria-current={trash ? undefined : "page"} className={BAR_BUTTON}>
            {t("blog.allPosts")}
          </Link>
          <Link to={`${BASE}?view=trash`} aria-current={trash ? "page" : undefined} className={BAR_BUTTON}>
            {t("blog.trash")}
          </Link>
          <Link
            to={NEW_POST}
            className="inline-flex h-9 items-center whitespace-nowrap rounded-md bg-blue-700 px-3 font-medium text-white hover:bg-blue-800"
          >
            {t("blog.new")}
          </Link>
        </nav>
      </div>
      {actionData?.error && !fieldError && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && (
        <ConfirmDelete
          text={
            confirming.deletedAt
              ? t("blog.purgeConfirm", { title: titleOf(confirming) })
              : t("blog.trashConfirm", { title: titleOf(confirming) })
          }
          id={confirming.id}
          back={back}
          intent={confirming.deletedAt ? "purge" : "trash"}
          submit={confirming.deletedAt ? t("blog.purge") : t("blog.moveToTrash")}
        />
      )}

      {scheduling && (
        <SchedulePanel post={scheduling} title={titleOf(scheduling)} back={back} fieldError={fieldError} />
      )}

      <PostFilters
        trash={trash}
        q={q}
        filters={filters}
        sort={list.sort}
        categories={categories}
        tags={tags}
        authors={authors}
      />

      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("blog.count", { count: list.total })}</p>

      {list.items.length === 0 ? (
        <PostsEmpty trash={trash} status={filters.status} filtered={filtered} />
      ) : (
        <>
          {!trash && <BulkBar back={back} categories={categories} />}
          <CardTable columns={trash ? columns.slice(1) : columns} testId="posts-table">
            {list.items.map((post) => {
              const title = titleOf(post);
              const named = (action: string) => t("blog.actionOn", { action, title });
              const act = (intent: Intent, text: string) => (
                <IntentButton intent={intent} id={post.id} back={back} text={text} label={named(text)} />
              );
              const link = (to: string, text: string, danger = false) => (
                <RowLink to={to} text={text} label={named(text)} danger={danger} />
              );
              const shownAt =
                post.status !== "draft" && post.publishedAt
                  ? {
                      iso: post.publishedAt,
                      kind: post.status === "scheduled" ? ("scheduled" as const) : ("published" as const),
                    }
                  : { iso: post.updatedAt, kind: "updated" as const };
              return (
                <CardRow key={post.id} testId="post-row">
                  {!trash && (
                    <CardCell label={t("blog.selectCol")} className="md:w-8">
                      <input
                        type="checkbox"
                        name="ids"
                        value={post.id}
                        form={BULK_FORM}
                        aria-label={t("blog.select", { title })}
                        className="size-4"
                      />
                    </CardCell>
                  )}
                  <CardCell label={t("blog.titleCol")} bare className="min-w-0 max-w-md">
                    <div className="min-w-0 max-md:w-full">
                      {post.editHref && !trash ? (
                        <Link
                          to={post.editHref}
                          className="break-words font-medium text-blue-800 underline dark:text-blue-300"
                        >
                          {title}
                        </Link>
                      ) : (
                        <span className="break-words font-medium">{title}</span>
                      )}
                      <div className="mt-1 flex flex-wrap items-center gap-1.5">
                        <LanguageBadges languages={post.languages} />
                        <OutdatedLabels locales={post.outdated} />
                        {post.featured && <StatusLabel tone="amber">{t("blog.featuredBadge")}</StatusLabel>}
                        <code className="break-all text-xs text-zinc-600 dark:text-zinc-400">{post.slug}</code>
                      </div>
                    </div>
                  </CardCell>
                  <CardCell label={t("blog.author")}>
                    {post.authorId === null ? t("blog.noAuthor") : (post.authorName ?? t("blog.unnamedAuthor"))}
                  </CardCell>
                  <CardCell label={t("blog.status")}>
                    <StatusLabel tone={STATUS_TONE[post.status]}>{t(`status.${post.status}`)}</StatusLabel>
                  </CardCell>
                  <CardCell label={t("blog.dateCol", { zone })}>
                    <ShortTime iso={shownAt.iso} locale={locale} zone={zone} />
                    <span className="block text-xs text-zinc-600 dark:text-zinc-400 max-md:inline">
                      {t(`blog.dateKind.${shownAt.kind}`)}
                    </span>
                  </CardCell>
                  <CardCell label={t("blog.views")} numeric>
                    <Link
                      to={`/admin/insights/posts/${post.id}`}
                      className="text-blue-800 underline dark:text-blue-300"
                      aria-label={t("blog.insightsFor", { title, count: post.viewCount })}
                    >
                      {post.viewCount}
                    </Link>
                    <Sparkline values={daily[post.id] ?? []} className="mt-1 block md:ml-auto" />
                  </CardCell>
                  <CardCell label={t("blog.actions")} bare>
                    <div className="flex flex-wrap items-start gap-2">
                      {trash ? (
                        <>
                          {act("restore", t("blog.restore"))}
                          <RowMenu key={post.version} label={t("blog.moreFor", { title })}>
                            {link(withParams({ confirmDelete: post.id }), t("blog.purge"), true)}
                          </RowMenu>
                        </>
                      ) : (
                        <>
                          {post.editHref && link(post.editHref, t("blog.edit"))}
                          <RowMenu key={post.version} label={t("blog.moreFor", { title })}>
                            {post.status !== "published" && act("publish", t("blog.publish"))}
                            {post.status !== "draft" && act("unpublish", t("blog.unpublish"))}
                            {link(withParams({ schedule: post.id }), t("blog.schedule"))}
                            {post.featured ? act("unfeature", t("blog.unfeature")) : act("feature", t("blog.feature"))}
                            {post.status === "published" && link(`/posts/detail/${post.id}`, t("blog.view"))}
                            {link(withParams({ confirmDelete: post.id }), t("blog.moveToTrash"), true)}
                          </RowMenu>
                        </>
                      )}
                    </div>
                  </CardCell>
                </CardRow>
              );
            })}
          </CardTable>
          <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
        </>
      )}
    </section>
  );
}
