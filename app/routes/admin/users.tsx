import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect } from "react-router";
import {
  ADMIN_BUTTON,
  AdminPagination,
  AdminSearch,
  ConfirmDelete,
  listQuery,
  safeBack,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { PASSWORD_PROVIDER, USER_SORTS } from "../../lib/admin-users.ts";
import { PROVIDER_NAMES } from "../../lib/auth-providers.ts";
import { formatDateTime } from "../../lib/format.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { revokeUserSessions } from "../../server/auth/auth.server.ts";
import { callAuth, mailAllowed, retryAfterHeaders } from "../../server/auth/guard.server.ts";
import { requireAdmin } from "../../server/auth/session.server.ts";
import { getApp, getRequest } from "../../server/context.server.ts";
import { normalizeEmail } from "../../server/env.server.ts";
import { flashHeaders, flashOptions } from "../../server/flash.server.ts";
import {
  banUser,
  deleteUserAccount,
  getUserForAdmin,
  grantAdmin,
  listUsersForAdmin,
  revokeAdmin,
  type UserActionResult,
  unbanUser,
} from "../../server/repos/admin-users.server.ts";
import { audit } from "../../server/repos/audit.server.ts";
import type { Route } from "./+types/users";

const PAGE_SIZE = 25;
const BASE = "/admin/users";

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(context, request);
  const { db, env } = getApp(context);
  const { q, page, url } = listQuery(request);
  const list = await listUsersForAdmin(db, { q, sort: url.searchParams.get("sort") ?? "", page, pageSize: PAGE_SIZE });
  const confirmId = url.searchParams.get("confirmDelete");
  const confirming = confirmId ? ((await getUserForAdmin(db, confirmId)) ?? null) : null;
  const envAdmins = new Set(env.adminEmails.map(normalizeEmail));
  return {
    list: { ...list, items: list.items.map((u) => ({ ...u, fromEnv: envAdmins.has(normalizeEmail(u.email)) })) },
    q,
    confirming,
    selfId: admin.id,
    locale: getRequest(context).locale,
  };
}

type ActionData = { error?: string; notice?: string };

const ERROR_KEYS: Record<string, string> = {
  lastAdmin: "adminUsers:errors.lastAdmin",
  self: "adminUsers:errors.self",
  notVerified: "adminUsers:errors.notVerified",
  banned: "adminUsers:errors.banned",
};

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  const user = id ? await getUserForAdmin(app.db, id) : undefined;
  if (!user) return data<ActionData>({ error: "admin:errors.notFound" }, { status: 404 });
  const back = safeBack(form.get("back"), BASE);
  const entity = { type: "user", id: user.id };
  const details = { title: user.email };

  if (intent === "resendVerification") {
    if (user.emailVerified) return data<ActionData>({ error: "adminUsers:errors.alreadyVerified" }, { status: 409 });
    if (!(await mailAllowed(context, user.email))) {
      return data<ActionData>(
        { error: "auth:errors.tooManyRequests" },
        { status: 429, headers: { "Retry-After": "3600" } },
      );
    }
    // No cookie: with the admin's session better-auth would mail the admin's own address.
    const headers = new Headers();
    const language = request.headers.get("accept-language");
    if (language) headers.set("accept-language", language);
    const sent = await callAuth(() =>
      app.auth.api.sendVerificationEmail({
        body: { email: user.email, callbackURL: "/login" },
        headers,
        asResponse: true,
      }),
    );
    if (!sent.ok) {
      getRequest(context).log.error({ code: sent.code, status: sent.status }, "resending a verification e-mail failed");
      return data<ActionData>({ error: "auth:errors.internalError" }, { status: 500 });
    }
    await audit(app.db, admin, "user.resendVerification", entity, details);
    return data<ActionData>({ notice: "adminUsers:notice.verificationSent" });
  }

  const run: Record<string, (trx: typeof app.db) => Promise<UserActionResult>> = {
    grantAdmin: (trx) => grantAdmin(trx, user),
    revokeAdmin: (trx) => revokeAdmin(trx, user),
    ban: (trx) => banUser(trx, admin, user),
    unban: (trx) => unbanUser(trx, user),
    delete: (trx) => deleteUserAccount(trx, admin, user),
  };
  const change = run[intent];
  if (!change) return data<ActionData>({ error: "admin:errors.notFound" }, { status: 400 });
  const result = await app.db.transaction().execute(async (trx) => {
    const outcome = await change(trx);
    if (outcome.ok) await audit(trx, admin, `user.${intent}`, entity, details);
    return outcome;
  });
  if (!result.ok) return data<ActionData>({ error: ERROR_KEYS[result.error] }, { status: 409 });
  if (intent === "ban" || intent === "delete") await revokeUserSessions(app.auth, user.id);
  const flash = intent === "delete" ? "flash.deleted" : "flash.saved";
  return redirect(back, { headers: flashHeaders(flashOptions(app.env), "success", flash) });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminUsers:users.title", [NOINDEX]);
}

export default function UsersAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const m = useMessage();
  const { list, q, confirming, selfId, locale } = loaderData;
  const { back, withParams } = useListUrls(BASE);
  const method = (id: string) => (id === PASSWORD_PROVIDER ? t("users.methodPassword") : (PROVIDER_NAMES[id] ?? id));
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale) : t("users.never"));

  const intentForm = (id: string, intent: string, label: string, ariaLabel: string, danger = false) => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="back" value={back} />
      <button
        type="submit"
        className={`${ADMIN_BUTTON} ${danger ? "text-red-700 dark:text-red-400" : ""}`}
        aria-label={ariaLabel}
      >
        {label}
      </button>
    </Form>
  );

  return (
    <section aria-labelledby="users-title" className="space-y-6">
      <h1 id="users-title" className="text-3xl font-bold tracking-tight">
        {t("users.title")}
      </h1>
      <p className="text-zinc-700 dark:text-zinc-300">{t("users.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}
      {actionData?.notice && <FormAlert tone="success">{m(actionData.notice)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("users.deleteConfirm", { email: confirming.email })} id={confirming.id} back={back} />
      )}

      <div className="flex flex-wrap items-end gap-6">
        <AdminSearch id="users-q" label={t("users.search")} button={t("users.searchButton")} q={q} />
        <Form method="get" className="flex items-end gap-2">
          {q && <input type="hidden" name="q" value={q} />}
          <div>
            <label htmlFor="users-sort" className="block text-sm font-medium">
              {t("users.sortBy")}
            </label>
            <select
              id="users-sort"
              name="sort"
              defaultValue={list.sort}
              className="rounded-md border border-zinc-300 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900"
            >
              {USER_SORTS.map((key) => (
                <option key={key} value={key}>
                  {t(`users.sort.${key}`)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className={ADMIN_BUTTON}>
            {t("users.sortButton")}
          </button>
        </Form>
      </div>

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q ? t("users.noMatch", { q }) : t("users.empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t("users.caption", { count: list.total })}</caption>
            <thead>
              <tr className="border-b border-zinc-200 dark:border-zinc-800">
                {(
                  [
                    "email",
                    "name",
                    "verified",
                    "methods",
                    "admin",
                    "created",
                    "lastSignIn",
                    "status",
                    "actions",
                  ] as const
                ).map((col) => (
                  <th key={col} scope="col" className="py-2 pr-3">
                    {t(`users.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.items.map((user) => (
                <tr key={user.id} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                  <th scope="row" className="py-2 pr-3 font-normal break-all">
                    {user.email}
                  </th>
                  <td className="py-2 pr-3">{user.name}</td>
                  <td className="py-2 pr-3">{user.emailVerified ? t("users.yes") : t("users.no")}</td>
                  <td className="py-2 pr-3">{user.methods.map(method).join(", ") || t("users.none")}</td>
                  <td className="py-2 pr-3">
                    {user.isAdmin ? t("users.yes") : t("users.no")}
                    {user.fromEnv && (
                      <span className="block text-xs text-zinc-600 dark:text-zinc-400">{t("users.fromEnv")}</span>
                    )}
                  </td>
                  <td className="py-2 pr-3 whitespace-nowrap">{when(user.createdAt)}</td>
                  <td className="py-2 pr-3 whitespace-nowrap">{when(user.lastSignInAt)}</td>
                  <td className="py-2 pr-3">
                    {user.banned ? (
                      <span className="font-medium text-red-700 dark:text-red-400">{t("users.banned")}</span>
                    ) : (
                      t("users.active")
                    )}
                  </td>
                  <td className="py-2">
                    <div className="flex flex-wrap gap-2">
                      {user.isAdmin
                        ? intentForm(
                            user.id,
                            "revokeAdmin",
                            t("users.revoke"),
                            t("users.revokeLabel", { email: user.email }),
                          )
                        : user.emailVerified &&
                          !user.banned &&
                          intentForm(
                            user.id,
                            "grantAdmin",
                            t("users.grant"),
                            t("users.grantLabel", { email: user.email }),
                          )}
                      {user.id !== selfId &&
                        (user.banned
                          ? intentForm(user.id, "unban", t("users.unban"), t("users.unbanLabel", { email: user.email }))
                          : intentForm(
                              user.id,
                              "ban",
                              t("users.ban"),
                              t("users.banLabel", { email: user.email }),
                              true,
                            ))}
                      {!user.emailVerified &&
                        intentForm(
                          user.id,
                          "resendVerification",
                          t("users.resend"),
                          t("users.resendLabel", { email: user.email }),
                        )}
                      {user.id !== selfId && (
                        <Link
                          to={withParams({ confirmDelete: user.id })}
                          className={`${ADMIN_BUTTON} text-red-700 dark:text-red-400`}
                          aria-label={t("users.deleteLabel", { email: user.email })}
                        >
                          {t("users.delete")}
                        </Link>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <AdminPagination page={list.page} pageCount={list.pageCount} withParams={withParams} />
    </section>
  );
}
