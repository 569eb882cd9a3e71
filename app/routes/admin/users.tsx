import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { DocsLink } from "../../components/admin/docs-link.tsx";
import {
  AdminListHeader,
  AdminPagination,
  AdminSearch,
  AdminSortForm,
  ConfirmDelete,
  IntentButton,
  useListUrls,
} from "../../components/admin/list-parts.tsx";
import { EmailText, RowLink } from "../../components/admin/list-table.tsx";
import {
  CardCell,
  CardRow,
  CardTable,
  RowMenu,
  ShortTime,
  StatusLabel,
  useListTimeZone,
} from "../../components/admin/table-parts.tsx";
import { FormAlert } from "../../components/ui/field.tsx";
import { PASSWORD_PROVIDER, USER_SORTS } from "../../lib/admin-users.ts";
import { PROVIDER_NAMES } from "../../lib/auth-providers.ts";
import type { FlashKey } from "../../lib/flash.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import {
  type AdminUser,
  banUser,
  deleteUserAccount,
  getUserForAdmin,
  grantAdmin,
  listUsersForAdmin,
  revokeAdmin,
  type UserActionResult,
  unbanUser,
} from "../../server/accounts/admin-users.server.ts";
import { revokeUserSessions } from "../../server/accounts/auth-loader.server.ts";
import { callAuth, mailAllowed, retryAfterHeaders } from "../../server/accounts/guard.server.ts";
import type { SessionUser } from "../../server/accounts/session.server.ts";
import { requireAdmin } from "../../server/accounts/session.server.ts";
import { audit } from "../../server/admin/audit.server.ts";
import { adminListRequest, pendingDelete } from "../../server/admin/list-request.server.ts";
import {
  type RowActionData,
  type RowActions,
  type RowIntent,
  refuse,
  runRowAction,
} from "../../server/admin/row-actions.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import type { DB } from "../../server/db/db.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import { normalizeEmail } from "../../server/platform/env.server.ts";
import type { Route } from "./+types/users";

const PAGE_SIZE = 25;
const BASE = "/admin/users";

export async function loader(args: Route.LoaderArgs) {
  const { admin, app, q, page, url, locale } = await adminListRequest(args);
  const sort = url.searchParams.get("sort") ?? "";
  const list = await listUsersForAdmin(app.db, { q, sort, page, pageSize: PAGE_SIZE });
  const confirming = await pendingDelete(url, (id) => getUserForAdmin(app.db, id));
  const envAdmins = new Set(app.env.adminEmails.map(normalizeEmail));
  return {
    list: { ...list, items: list.items.map((u) => ({ ...u, fromEnv: envAdmins.has(normalizeEmail(u.email)) })) },
    q,
    confirming,
    selfId: admin.id,
    locale,
  };
}

type ActionData = RowActionData;

const ERROR_KEYS: Record<string, string> = {
  lastAdmin: "adminUsers:errors.lastAdmin",
  self: "adminUsers:errors.self",
  notVerified: "adminUsers:errors.notVerified",
  banned: "adminUsers:errors.banned",
};

/** A change of the account's standing, refused (409) when the repository says why not. */
function userChange(
  change: (trx: DB, user: AdminUser, admin: SessionUser) => Promise<UserActionResult>,
  flash: FlashKey,
  after?: (user: AdminUser) => Promise<void>,
): RowIntent<AdminUser> {
  return {
    apply: async (trx, user, _form, admin) => {
      const outcome = await change(trx, user, admin);
      return outcome.ok ? undefined : refuse(ERROR_KEYS[outcome.error] ?? "admin:errors.notFound", 409);
    },
    flash,
    after,
  };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  const admin = await requireAdmin(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  const signOut = (user: AdminUser) => revokeUserSessions(app.auth, user.id);
  const rows: RowActions<AdminUser> = {
    type: "user",
    listPath: BASE,
    load: getUserForAdmin,
    title: (user) => user.email,
    intents: {
      grantAdmin: userChange((trx, user) => grantAdmin(trx, user), "flash.saved"),
      revokeAdmin: userChange((trx, user) => revokeAdmin(trx, user), "flash.saved"),
      ban: userChange((trx, user, by) => banUser(trx, by, user), "flash.saved", signOut),
      unban: userChange((trx, user) => unbanUser(trx, user), "flash.saved"),
      delete: userChange((trx, user, by) => deleteUserAccount(trx, by, user), "flash.deleted", signOut),
    },
  };
  if (form.get("intent") !== "resendVerification") return runRowAction(args, rows, form, admin);

  // Sends mail rather than writing a row: rate-limited, audited on its own.
  const user = await getUserForAdmin(app.db, String(form.get("id") ?? ""));
  if (!user) return data<ActionData>({ error: "admin:errors.notFound" }, { status: 404 });
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
  const auth = await app.auth();
  const sent = await callAuth(() =>
    auth.api.sendVerificationEmail({
      body: { email: user.email, callbackURL: "/login" },
      headers,
      asResponse: true,
    }),
  );
  if (!sent.ok) {
    getRequest(context).log.error({ code: sent.code, status: sent.status }, "resending a verification e-mail failed");
    return data<ActionData>({ error: "auth:errors.internalError" }, { status: 500 });
  }
  await audit(app.db, admin, "user.resendVerification", { type: "user", id: user.id }, { title: user.email });
  return data<ActionData>({ notice: "adminUsers:notice.verificationSent" });
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "adminUsers:users.title", [NOINDEX]);
}

const USER_COLUMNS = [
  "email",
  "name",
  "verified",
  "methods",
  "admin",
  "created",
  "lastSignIn",
  "status",
  "actions",
] as const;

export default function UsersAdmin({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("adminUsers");
  const m = useMessage();
  const { list, q, confirming, selfId, locale } = loaderData;
  const { back, withParams } = useListUrls(BASE);
  const method = (id: string) => (id === PASSWORD_PROVIDER ? t("users.methodPassword") : (PROVIDER_NAMES[id] ?? id));
  const { t: tAdmin } = useTranslation("admin");
  const zone = useListTimeZone();
  const when = (iso: string | null) => (iso ? <ShortTime iso={iso} locale={locale} zone={zone} /> : t("users.never"));

  const intentForm = (id: string, intent: string, text: string, label: string, danger = false) => (
    <IntentButton id={id} intent={intent} back={back} text={text} label={label} danger={danger} />
  );

  return (
    <section aria-labelledby="users-title" className="space-y-6">
      <AdminListHeader id="users-title" title={t("users.title")} />
      <p className="text-zinc-700 dark:text-zinc-300">{t("users.intro")}</p>
      {actionData?.error && <FormAlert>{m(actionData.error)}</FormAlert>}
      {actionData?.notice && <FormAlert tone="success">{m(actionData.notice)}</FormAlert>}

      {confirming && (
        <ConfirmDelete text={t("users.deleteConfirm", { email: confirming.email })} id={confirming.id} back={back} />
      )}

      <div className="flex flex-wrap items-end gap-6">
        <AdminSearch id="users-q" label={t("users.search")} button={t("users.searchButton")} q={q} />
        <AdminSortForm
          id="users-sort"
          label={t("users.sortBy")}
          button={t("users.sortButton")}
          sort={list.sort}
          sorts={USER_SORTS.map((key) => ({ key, label: t(`users.sort.${key}`) }))}
          q={q}
        />
      </div>

      {list.items.length === 0 ? (
        <p className="text-zinc-600 dark:text-zinc-400">{q ? t("users.noMatch", { q }) : t("users.empty")}</p>
      ) : (
        <>
          <CardTable
            caption={t("users.caption", { count: list.total })}
            columns={USER_COLUMNS.map((col) => ({
              label:
                col === "created" || col === "lastSignIn"
                  ? tAdmin("table.withZone", { label: t(`users.col.${col}`), zone })
                  : t(`users.col.${col}`),
            }))}
          >
            {list.items.map((user) => {
              const label = (col: (typeof USER_COLUMNS)[number]) => t(`users.col.${col}`);
              return (
                <CardRow key={user.id}>
                  <CardCell label={label("email")} rowHeader>
                    <EmailText email={user.email} />
                  </CardCell>
                  <CardCell label={label("name")}>{user.name}</CardCell>
                  <CardCell label={label("verified")}>{user.emailVerified ? t("users.yes") : t("users.no")}</CardCell>
                  <CardCell label={label("methods")}>{user.methods.map(method).join(", ") || t("users.none")}</CardCell>
                  <CardCell label={label("admin")}>
                    {user.isAdmin ? t("users.yes") : t("users.no")}
                    {user.fromEnv && (
                      <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                        {t("users.fromEnv")} <DocsLink doc="configuration" />
                      </span>
                    )}
                  </CardCell>
                  <CardCell label={tAdmin("table.withZone", { label: label("created"), zone })}>
                    {when(user.createdAt)}
                  </CardCell>
                  <CardCell label={tAdmin("table.withZone", { label: label("lastSignIn"), zone })}>
                    {when(user.lastSignInAt)}
                  </CardCell>
                  <CardCell label={label("status")}>
                    {user.banned ? (
                      <StatusLabel tone="red">{t("users.banned")}</StatusLabel>
                    ) : (
                      <StatusLabel tone="green">{t("users.active")}</StatusLabel>
                    )}
                  </CardCell>
                  <CardCell label={label("actions")} bare>
                    <div className="flex flex-wrap items-start gap-2">
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
                      {(user.id !== selfId || !user.emailVerified) && (
                        <RowMenu key={`${user.banned}`} label={tAdmin("table.moreFor", { name: user.email })}>
                          {user.id !== selfId &&
                            (user.banned
                              ? intentForm(
                                  user.id,
                                  "unban",
                                  t("users.unban"),
                                  t("users.unbanLabel", { email: user.email }),
                                )
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
                            <RowLink
                              to={withParams({ confirmDelete: user.id })}
                              label={t("users.deleteLabel", { email: user.email })}
                              text={t("users.delete")}
                              danger
                            />
                          )}
                        </RowMenu>
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
