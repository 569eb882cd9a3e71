import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import { Sparkline } from "../../components/admin/line-chart.tsx";
import {
  ActionsCell,
  ADMIN_BUTTON,
  AdminTable,
  ConfirmDelete,
  FilterSelect,
  IntentButton,
  RowLink,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { describedBy, FieldMessages, FormAlert } from "../../components/ui/field.tsx";
import { LocalTime } from "../../components/ui/local-time.tsx";
import { Link } from "../../lean/link.tsx";
import { ADMIN_POST_SORTS, ADMIN_POST_STATUSES, oneOf } from "../../lib/admin-content.ts";
import { browserOffsetAt } from "../../lib/editor-values.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { localDateTimeToIso } from "../../lib/schemas/post.ts";
import { termName } from "../../lib/terms.ts";
import { adminListRequest, safeBack } from "../../server/admin/list-request.server.ts";
import { requireAdmin, type SessionUser } from "../../server/auth/session.server.ts";
import { lifecycleAnnounced } from "../../server/cache/page-tags.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { postViewsByDay } from "../../server/insights/report.server.ts";
import { canEditPost } from "../../server/posts/post-access.server.ts";
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
} from "../../server/repos/admin-posts.server.ts";
import { listCategories } from "../../server/repos/taxonomy.server.ts";
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

/**
 * Sends the browser's UTC offset at the chosen moment with the schedule form
 * (without JavaScript it stays 0: the time is read as UTC, as the hint says).
 */
function withBrowserOffset(event: FormEvent<HTMLFormElement>) {
  const form = event.currentTarget;
  const local = form.elements.namedItem("publishAtLocal");
  const tz = form.elements.namedItem("publishAtTz");
  if (local instanceof HTMLInputElement && tz instanceof HTMLInputElement) {
    tz.value = String(browserOffsetAt(local.value));
  }
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
  const titleOf = (post: { title: string }) => post.title || t("blog.untitled");
  const fieldError = actionData?.field === "publishAt" ? m(actionData.error) : null;

  return (
    <section aria-labelledby="blog-title" className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="blog-title" className="text-3xl font-bold tracking-tight">
          {trash ? t("blog.trashTitle") : t("blog.title")}
        </h1>
        <nav aria-label={t("blog.viewSwitch")} className="flex gap-3 text-sm">
          <Link to={BASE} aria-current={trash ? undefined : "page"} className={ADMIN_BUTTON}>
            {t("blog.allPosts")}
          </Link>
          <Link to={`${BASE}?view=trash`} aria-current={trash ? "page" : undefined} className={ADMIN_BUTTON}>
            {t("blog.trash")}
          </Link>
          <Link to="/posts/createPost" className={ADMIN_BUTTON}>
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
        <section
          aria-labelledby="schedule-title"
          className="rounded-lg border border-blue-300 bg-blue-50 p-4 dark:border-blue-800 dark:bg-blue-950"
        >
          <h2 id="schedule-title" className="font-semibold">
            {t("blog.scheduleTitle", { title: titleOf(scheduling) })}
          </h2>
          <Form method="post" className="mt-3 space-y-3" onSubmit={withBrowserOffset}>
            <input type="hidden" name="intent" value="schedule" />
            <input type="hidden" name="id" value={scheduling.id} />
            <input type="hidden" name="back" value={back} />
            <input type="hidden" name="publishAtTz" defaultValue="0" />
            <div className="space-y-1">
              <label htmlFor="schedule-at" className="block text-sm font-medium">
                {t("blog.scheduleAt")}
              </label>
              <input
                id="schedule-at"
                type="datetime-local"
                name="publishAtLocal"
                required
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={describedBy("schedule-at", t("blog.scheduleHint"), fieldError)}
                className="block rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
              />
              <FieldMessages id="schedule-at" hint={t("blog.scheduleHint")} error={fieldError} />
            </div>
            <div className="flex gap-3">
              <button type="submit" className="rounded-md bg-blue-700 px-3 py-1.5 text-white hover:bg-blue-800">
                {t("blog.scheduleButton")}
              </button>
              <Link to={back} className="rounded-md border border-zinc-300 px-3 py-1.5 dark:border-zinc-700">
                {t("blog.cancel")}
              </Link>
            </div>
          </Form>
        </section>
      )}

      <Form method="get" role="search" aria-label={t("blog.filters")} className="flex flex-wrap items-end gap-3">
        {trash && <input type="hidden" name="view" value="trash" />}
        <div>
          <label htmlFor="blog-q" className="block text-sm font-medium">
            {t("blog.search")}
          </label>
          <input
            id="blog-q"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={100}
            className="block w-64 rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
          />
        </div>
        <FilterSelect
          id="blog-status"
          name="status"
          label={t("blog.status")}
          value={filters.status ?? ""}
          any={t("blog.any")}
          options={ADMIN_POST_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <FilterSelect
          id="blog-category"
          name="category"
          label={t("blog.category")}
          value={filters.categoryId ?? ""}
          any={t("blog.any")}
          options={categories.map((c) => ({ value: c.id, label: c.name }))}
        />
        <FilterSelect
          id="blog-tag"
          name="tag"
          label={t("blog.tag")}
          value={filters.tagId ?? ""}
          any={t("blog.any")}
          options={tags.map((tag) => ({ value: tag.id, label: tag.name }))}
        />
        <FilterSelect
          id="blog-author"
          name="author"
          label={t("blog.author")}
          value={filters.authorId ?? ""}
          any={t("blog.any")}
          options={authors.map((a) => ({ value: a.id, label: a.name ?? t("blog.unnamedAuthor") }))}
        />
        <FilterSelect
          id="blog-sort"
          name="sort"
          label={t("blog.sortBy")}
          value={list.sort}
          options={ADMIN_POST_SORTS.map((key) => ({ value: key, label: t(`blog.sort.${key}`) }))}
        />
        <button type="submit" className={`${ADMIN_BUTTON} py-2`}>
          {t("blog.apply")}
        </button>
      </Form>

      <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("blog.count", { count: list.total })}</p>

      <AdminTable
        columns={[
          t("blog.titleCol"),
          t("blog.author"),
          t("blog.status"),
          t("blog.dates"),
          t("blog.views"),
          t("blog.actions"),
        ]}
        rowCount={list.items.length}
        pagination={{ page: list.page, pageCount: list.pageCount, withParams }}
        empty={trash ? t("blog.trashEmpty") : t("blog.empty")}
      >
        {list.items.map((post) => {
          const title = titleOf(post);
          const act = (intent: Intent, text: string) => (
            <IntentButton
              intent={intent}
              id={post.id}
              back={back}
              text={text}
              label={t("blog.actionOn", { action: text, title })}
            />
          );
          const link = (to: string, text: string, danger = false) => (
            <RowLink to={to} text={text} label={t("blog.actionOn", { action: text, title })} danger={danger} />
          );
          return (
            <tr key={post.id} className="border-b border-zinc-100 align-top dark:border-zinc-900">
              <td className="py-2 pr-3">
                {post.editHref && !trash ? (
                  <Link to={post.editHref} className="font-medium text-blue-800 underline dark:text-blue-300">
                    {title}
                  </Link>
                ) : (
                  <span className="font-medium">{title}</span>
                )}
                {post.featured && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 text-xs text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                    {t("blog.featuredBadge")}
                  </span>
                )}
                <br />
                <code className="text-xs text-zinc-600 dark:text-zinc-400">{post.slug}</code>
              </td>
              <td className="py-2 pr-3">
                {post.authorId === null ? t("blog.noAuthor") : (post.authorName ?? t("blog.unnamedAuthor"))}
              </td>
              <td className="py-2 pr-3">{t(`status.${post.status}`)}</td>
              <td className="py-2 pr-3">
                {post.publishedAt && (
                  <>
                    {post.status === "scheduled" ? t("blog.scheduledFor") : t("blog.publishedAt")}{" "}
                    <LocalTime iso={post.publishedAt} locale={locale} />
                    <br />
                  </>
                )}
                {t("blog.updatedAt")} <LocalTime iso={post.updatedAt} locale={locale} />
              </td>
              <td className="py-2 pr-3 tabular-nums">
                <Link
                  to={`/admin/insights/posts/${post.id}`}
                  className="text-blue-800 underline dark:text-blue-300"
                  aria-label={t("blog.insightsFor", { title, count: post.viewCount })}
                >
                  {post.viewCount}
                </Link>
                <Sparkline values={daily[post.id] ?? []} className="mt-1 block" />
              </td>
              <ActionsCell>
                {trash ? (
                  <>
                    {act("restore", t("blog.restore"))}
                    {link(withParams({ confirmDelete: post.id }), t("blog.purge"), true)}
                  </>
                ) : (
                  <>
                    {post.status !== "published" && act("publish", t("blog.publish"))}
                    {post.status !== "draft" && act("unpublish", t("blog.unpublish"))}
                    {link(withParams({ schedule: post.id }), t("blog.schedule"))}
                    {post.featured ? act("unfeature", t("blog.unfeature")) : act("feature", t("blog.feature"))}
                    {post.editHref && link(post.editHref, t("blog.edit"))}
                    {post.status === "published" && link(`/posts/detail/${post.id}`, t("blog.view"))}
                    {link(withParams({ confirmDelete: post.id }), t("blog.moveToTrash"), true)}
                  </>
                )}
              </ActionsCell>
            </tr>
          );
        })}
      </AdminTable>
    </section>
  );
}
