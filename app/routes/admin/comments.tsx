import { useTranslation } from "react-i18next";
import { data, Form, redirect } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  AdminSearchSort,
  ConfirmPanel,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { EmailText, SelectAllBox } from "../../components/admin/list-table.tsx";
import {
  CardCell,
  CardRow,
  CardTable,
  type LabelTone,
  RowMenu,
  ShortTime,
  StatusLabel,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { Link } from "../../lean/link.tsx";
import {
  COMMENT_ACTION_STATUS,
  COMMENT_ACTIONS,
  COMMENT_SORTS,
  COMMENT_TABS,
  type CommentAction,
  oneOf,
} from "../../lib/admin-content.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { banUser, getUserForAdmin } from "../../server/accounts/admin-users.server.ts";
import { revokeUserSessions } from "../../server/accounts/auth-loader.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { adminListRequest, pendingDelete, safeBack } from "../../server/admin/list-request.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import {
  deleteComments,
  getCommentsForModeration,
  listCommentsForModeration,
  MAX_BULK,
  setCommentStatus,
} from "../../server/comments/comment-moderation.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { noticeDeps } from "../../server/notify/notices.server.ts";
import { queueReplyNotices } from "../../server/notify/replies.server.ts";
import type { Route } from "./+types/comments";

const PAGE_SIZE = 25;
const BASE = "/admin/comments";

export async function loader(args: Route.LoaderArgs) {
  const { app, q, page, url, locale } = await adminListRequest(args);
  const status = oneOf(COMMENT_TABS, url.searchParams.get("status")) ?? "pending";
  const sort = oneOf(COMMENT_SORTS, url.searchParams.get("sort")) ?? "newest";
  const list = await listCommentsForModeration(app.db, { status, page, pageSize: PAGE_SIZE, locale, q, sort });
  const confirming = await pendingDelete(url, async (id) => (await getCommentsForModeration(app.db, [id]))[0]);
  return { list, status, confirming, locale, q, sort };
}

/**
 * One form serves the whole list: a row's own button sends `one=action:id`;
 * otherwise the checked `ids` get the chosen `bulk` action. Deletes need
 * `confirmed` (a row's delete comes from its confirmation panel; a bulk delete
 * first answers with a confirmation listing the comments).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const back = safeBack(form.get("back"), BASE);
  // "Ban the author": the users section's ban (sessions revoked at once), from the queue.
  const banAuthor = String(form.get("banAuthor") ?? "");
  if (banAuthor) {
    const user = await getUserForAdmin(app.db, banAuthor);
    if (!user) return data({ error: "admin:errors.notFound", confirm: null }, { status: 404 });
    const result = await app.db.transaction().execute(async (trx) => {
      const banned = await banUser(trx, admin, user);
      if (banned.ok)
        await audit(trx, admin, "user.ban", { type: "user", id: user.id }, { title: user.email, from: "comments" });
      return banned;
    });
    if (!result.ok) return data({ error: `adminUsers:errors.${result.error}`, confirm: null }, { status: 409 });
    await revokeUserSessions(app.auth, user.id);
    return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", "flash.saved") });
  }
  const one = String(form.get("one") ?? "");
  let act: CommentAction | null;
  let ids: string[];
  if (one) {
    const [name = "", id = ""] = one.split(":");
    act = oneOf(COMMENT_ACTIONS, name);
    ids = id ? [id] : [];
  } else {
    act = oneOf(COMMENT_ACTIONS, form.get("bulk"));
    ids = form.getAll("ids").map(String).filter(Boolean);
  }
  if (!act) return data({ error: "adminContent:errors.chooseAction", confirm: null }, { status: 400 });
  if (ids.length === 0) return data({ error: "adminContent:errors.chooseComments", confirm: null }, { status: 400 });
  if (ids.length > MAX_BULK) return data({ error: "adminContent:errors.tooMany", confirm: null }, { status: 400 });
  const comments = await getCommentsForModeration(app.db, ids);
  if (comments.length === 0) return data({ error: "admin:errors.notFound", confirm: null }, { status: 404 });
  if (act === "delete" && form.get("confirmed") !== "1") {
    return data({ error: null, confirm: { comments, back } }, { status: 200 });
  }

  const found = comments.map((c) => c.id);
  const action = act;
  await app.db.transaction().execute(async (trx) => {
    if (action === "delete") await deleteComments(trx, found);
    else await setCommentStatus(trx, found, COMMENT_ACTION_STATUS[action]);
    // Replies readers see from now on notify the comment replied to (at most once each).
    if (action === "approve") {
      const shown = comments.filter((c) => c.status !== "approved").map((c) => c.id);
      await queueReplyNotices(trx, noticeDeps(app), shown);
    }
    for (const c of comments) {
      await audit(
        trx,
        admin,
        `comment.${action}`,
        { type: "comment", id: c.id },
        { postId: c.postId, author: c.authorEmail, from: c.status, excerpt: c.excerpt },
      );
    }
  });
  return redirect(back, {
    headers: flashHeaders(flashOptions(app.env), "success", action === "delete" ? "flash.deleted" : "flash.saved"),
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminContent:comments.title", [NOINDEX]);
}

/** The delete step for one comment or the chosen ones: which, then the real form. */
function DeleteConfirm({
  text,
  items,
  back,
  one,
}: {
  text: string;
  items: Array<{ id: string; authorEmail: string | null; excerpt: string }>;
  back: string;
  one: boolean;
}) {
  const { t } = useTranslation("adminContent");
  const fields: Record<string, string | string[]> = one
    ? { confirmed: "1", one: `delete:${items[0]?.id ?? ""}` }
    : { confirmed: "1", bulk: "delete", ids: items.map((c) => c.id) };
  return (
    <ConfirmPanel text={text} fields={fields} back={back} submit={t("comments.delete")}>
      <ul className="list-disc pl-6 text-sm">
        {items.map((c) => (
          <li key={c.id}>
            {c.authorEmail ?? t("comments.deletedAccount")}: {c.excerpt}
          </li>
        ))}
      </ul>
    </ConfirmPanel>
  );
}

/** The colour of each comment status's label (the "All" tab shows it). */
const COMMENT_TONE: Record<string, LabelTone> = { pending: "amber", approved: "green", hidden: "zinc", spam: "red" };

export default function CommentsAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminContent");
  const m = useMessage();
  const { list, status, confirming, locale, q, sort } = loaderData;
  const { back, withParams } = useListUrls(BASE);
  const bulkConfirm = actionData?.confirm ?? null;
  const zone = useListTimeZone();

  return (
    <section aria-labelledby="comments-title" className="space-y-6">
      <h1 id="comments-title" className="text-3xl font-bold tracking-tight">
        {t("comments.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("comments.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}

      {confirming && <DeleteConfirm text={t("comments.deleteConfirmOne")} items={[confirming]} back={back} one />}
      {bulkConfirm && (
        <DeleteConfirm
          text={t("comments.deleteConfirmMany", { count: bulkConfirm.comments.length })}
          items={bulkConfirm.comments}
          back={bulkConfirm.back}
          one={false}
        />
      )}

      <nav aria-label={t("comments.tabs")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {COMMENT_TABS.map((tab) => (
            <li key={tab}>
              <Link
                to={tab === "pending" ? BASE : `${BASE}?status=${tab}`}
                aria-current={tab === status ? "page" : undefined}
                className={`inline-block rounded-md px-3 py-1.5 ${
                  tab === status
                    ? "bg-blue-700 text-white"
                    : "text-blue-800 hover:bg-zinc-100 dark:text-blue-300 dark:hover:bg-zinc-800"
                }`}
              >
                {t(`comments.tab.${tab}`)} ({list.counts[tab]})
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <AdminSearchSort
        idPrefix="comments"
        labels={{ search: t("comments.search"), sort: t("comments.sortBy"), button: t("comments.searchButton") }}
        q={q}
        sort={sort}
        sorts={COMMENT_SORTS.map((key) => ({ key, label: t(`comments.sort.${key}`) }))}
        keep={status !== "pending" ? { status } : {}}
      />

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{t("comments.empty")}</p>
      ) : (
        <Form method="post" className="space-y-4">
          <input type="hidden" name="back" value={back} />
          <CardTable
            testId="comments-table"
            columns={[
              {
                label: t("comments.select"),
                header: (
                  <SelectAllBox
                    key={list.items.map((c) => c.id).join()}
                    name="ids"
                    label={t("comments.selectAll")}
                    fallback={t("comments.select")}
                    labelClassName="sr-only max-md:not-sr-only max-md:ml-2 max-md:text-sm max-md:font-normal"
                  />
                ),
                className: "md:w-8",
                onCards: true,
              },
              { label: t("comments.comment") },
              { label: t("comments.post") },
              { label: t("comments.author") },
              { label: t("comments.dateCol", { zone }) },
              { label: t("comments.actions") },
            ]}
          >
            {list.items.map((c) => {
              const who = c.remote?.handle ?? c.authorEmail ?? t("comments.deletedAccount");
              const excerpt = c.excerpt.slice(0, 40);
              const label = (action: string) => t("comments.actionOn", { action, author: who, excerpt });
              const one = (action: CommentAction, danger = false) => (
                <button
                  type="submit"
                  name="one"
                  value={`${action}:${c.id}`}
                  className={`${ADMIN_BUTTON} whitespace-nowrap${danger ? " text-red-700 dark:text-red-400" : ""}`}
                  aria-label={label(t(`comments.${action}`))}
                >
                  {t(`comments.${action}`)}
                </button>
              );
              // One action in sight: approve what waits, hide what is out; the rest under "More".
              const primary: CommentAction = c.status === "approved" ? "hide" : "approve";
              return (
                <CardRow key={c.id}>
                  <CardCell label={t("comments.select")} className="md:w-8">
                    <input
                      id={`select-${c.id}`}
                      type="checkbox"
                      name="ids"
                      value={c.id}
                      className="size-4"
                      aria-label={t("comments.selectOne", { author: who, excerpt })}
                    />
                  </CardCell>
                  <CardCell label={t("comments.comment")} bare className="max-w-md break-words">
                    <span className="min-w-0 break-words">{c.excerpt}</span>
                    {status === "all" && (
                      <span className="ml-2">
                        <StatusLabel tone={COMMENT_TONE[c.status] ?? "zinc"}>
                          {t(`comments.tab.${c.status}`)}
                        </StatusLabel>
                      </span>
                    )}
                  </CardCell>
                  <CardCell label={t("comments.post")}>
                    <Link
                      to={`/posts/detail/${c.postId}`}
                      className="break-words text-blue-800 underline dark:text-blue-300"
                    >
                      {c.postTitle || t("comments.untitled")}
                    </Link>
                    {!c.postPublic && (
                      <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-400">{t("comments.notPublic")}</span>
                    )}
                  </CardCell>
                  <CardCell label={t("comments.author")}>
                    <div className="min-w-0">
                      {/* The name readers see, and the address only admins see. */}
                      {c.authorName && <span className="block font-medium">{c.authorName}</span>}
                      {c.remote ? (
                        <span className="block text-xs break-all" data-testid="remote-author">
                          {c.remote.url ? (
                            <a href={c.remote.url} rel="noopener noreferrer nofollow" className="underline">
                              {c.remote.handle}
                            </a>
                          ) : (
                            c.remote.handle
                          )}{" "}
                          <span className="text-zinc-600 dark:text-zinc-400">{t("comments.fromFediverse")}</span>
                        </span>
                      ) : c.authorEmail ? (
                        <EmailText email={c.authorEmail} className={c.authorName ? "text-xs" : ""} />
                      ) : (
                        <span className="block text-zinc-600 dark:text-zinc-400">{who}</span>
                      )}
                    </div>
                  </CardCell>
                  <CardCell label={t("comments.dateCol", { zone })}>
                    <ShortTime iso={c.createdAt} locale={locale} zone={zone} />
                  </CardCell>
                  <CardCell label={t("comments.actions")} bare>
                    <div className="flex flex-wrap items-start gap-2">
                      {one(primary)}
                      <RowMenu label={t("comments.moreFor", { author: who, excerpt })}>
                        {primary !== "approve" && c.status !== "approved" && one("approve")}
                        {primary !== "hide" && c.status !== "hidden" && one("hide")}
                        {c.status !== "spam" && one("spam")}
                        <Link
                          to={withParams({ confirmDelete: c.id })}
                          className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                          aria-label={label(t("comments.delete"))}
                        >
                          {t("comments.delete")}
                        </Link>
                        {c.remote && (
                          // Handled by the Fediverse page, which lists blocks and lifts them.
                          <button
                            type="submit"
                            formAction="/admin/fediverse"
                            name="blockActor"
                            value={c.remote.actorUri}
                            className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                            aria-label={t("comments.blockRemoteLabel", { handle: c.remote.handle })}
                          >
                            {t("comments.blockRemote")}
                          </button>
                        )}
                        {c.authorId && (
                          <button
                            type="submit"
                            name="banAuthor"
                            value={c.authorId}
                            className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                            aria-label={t("comments.banAuthorLabel", { email: c.authorEmail ?? "" })}
                          >
                            {t("comments.banAuthor")}
                          </button>
                        )}
                      </RowMenu>
                    </div>
                  </CardCell>
                </CardRow>
              );
            })}
          </CardTable>
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor="bulk-action" className="block text-sm font-medium">
                {t("comments.bulkLabel")}
              </label>
              <select
                id="bulk-action"
                name="bulk"
                defaultValue=""
                className="block rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
              >
                <option value="">{t("comments.bulkChoose")}</option>
                {COMMENT_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {t(`comments.${a}`)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={`${ADMIN_BUTTON} py-2`}>
              {t("comments.apply")}
            </button>
          </div>
        </Form>
      )}

      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
