import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation } from "react-router";
import { DisplayNameField } from "../../components/auth/display-name-field.tsx";
import { EmailField, Field, FormAlert, NewPasswordField, SubmitButton } from "../../components/ui/field.tsx";
import { useClientValidation } from "../../components/ui/use-client-validation.ts";
import { Link } from "../../lean/link.tsx";
import { PROVIDER_NAMES } from "../../lib/auth-providers.ts";
import { BIO_MAX } from "../../lib/author-profile.ts";
import { validate } from "../../lib/forms.ts";
import { useMessage } from "../../lib/i18n/use-message.ts";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { routePolicy } from "../../lib/route-policy.ts";
import { changeEmailSchema, changePasswordSchema, deleteAccountSchema, profileSchema } from "../../lib/schemas/auth.ts";
import { configuredProviders } from "../../server/accounts/auth-config.server.ts";
import {
  callAuth,
  checkFormLimits,
  cookieHeaders,
  type FormFailure,
  isPasswordPolicyCode,
  messageFor,
  passwordPolicy,
  retryAfterHeaders,
} from "../../server/accounts/guard.server.ts";
import { ensureHandle, getOwnProfile, updateProfile } from "../../server/accounts/profiles.server.ts";
import { requireUser } from "../../server/accounts/session.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import { readForm } from "../../server/http/form.server.ts";
import {
  rememberLocale,
  replyNotificationsOn,
  setReplyNotifications,
} from "../../server/notify/notification-prefs.server.ts";
import { requestSettings } from "../../server/site/request-settings.server.ts";
import type { Route } from "./+types/account";

export const handle = routePolicy({ cache: "none", writes: "content" });

type Intent = "profile" | "password" | "email" | "link" | "unlink" | "revokeOthers" | "notifications" | "delete";

interface AccountResult extends FormFailure {
  intent?: Intent;
  done?: string;
  email?: string;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const user = await requireUser(context, request);
  // An account from before handles (or whose first try failed) gets its handle here.
  await ensureHandle(app.db, user.id);
  const auth = await app.auth();
  const [accounts, sessions, replyNotifications, profile] = await Promise.all([
    auth.api.listUserAccounts({ headers: request.headers }),
    auth.api.listSessions({ headers: request.headers }),
    replyNotificationsOn(app.db, user.id),
    getOwnProfile(app.db, user.id),
  ]);
  const configured = configuredProviders(app.env);
  return {
    email: user.email,
    profile: {
      name: profile?.name ?? "",
      bio: profile?.bio ?? "",
      image: profile?.image ?? "",
      authorPath: profile?.handle ? `${getRequest(context).prefix}/authors/${profile.handle}` : null,
    },
    // Uploads are for admins (the authors); others keep the avatar their sign-in provider gave.
    canUpload: user.isAdmin,
    methods: accounts.map((a) => ({ providerId: a.providerId, accountId: a.accountId })),
    linkable: configured.filter((p) => !accounts.some((a) => a.providerId === p)),
    sessionCount: sessions.length,
    replyNotifications,
    policy: passwordPolicy(app.env, await requestSettings(context)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const user = await requireUser(context, request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const fail = (failure: AccountResult, status = 400) => data<AccountResult>({ intent, ...failure }, { status });
  const headers = request.headers;
  const auth = await app.auth();

  switch (intent) {
    case "profile": {
      const parsed = validate(profileSchema, form);
      if (!parsed.ok) return fail({ fieldErrors: parsed.errors });
      // Name, bio and avatar in one write: all of them or none.
      await updateProfile(app.db, user.id, {
        name: parsed.data.name,
        bio: parsed.data.bio,
        ...(user.isAdmin ? { image: parsed.data.avatar } : {}),
      });
      return data<AccountResult>({ intent, done: "auth:account.profileDone" });
    }
    case "password": {
      const parsed = validate(changePasswordSchema(passwordPolicy(app.env, await requestSettings(context))), form);
      if (!parsed.ok) return fail({ fieldErrors: parsed.errors });
      const limited = await checkFormLimits<AccountResult>(context, "signIn", user.email, { intent });
      if (limited) return limited;
      const result = await callAuth(() =>
        auth.api.changePassword({
          body: {
            currentPassword: parsed.data.currentPassword,
            newPassword: parsed.data.password,
            revokeOtherSessions: true,
          },
          headers,
          asResponse: true,
        }),
      );
      if (result.code === "INVALID_PASSWORD")
        return fail({ fieldErrors: { currentPassword: "auth:account.wrongPassword" } });
      if (isPasswordPolicyCode(result.code)) return fail({ fieldErrors: { password: "auth:errors.passwordPolicy" } });
      if (!result.ok) return fail({ formError: messageFor(result.code) }, result.status >= 500 ? 500 : 400);
      // The session token is renewed with the password: keep this browser signed in.
      return data<AccountResult>(
        { intent, done: "auth:account.passwordDone" },
        { headers: cookieHeaders(result.headers) },
      );
    }
    case "email": {
      const parsed = validate(changeEmailSchema, form);
      if (!parsed.ok) return fail({ fieldErrors: parsed.errors });
      const limited = await checkFormLimits<AccountResult>(context, "mail", user.email, { intent });
      if (limited) return limited;
      const result = await callAuth(() =>
        auth.api.changeEmail({
          body: { newEmail: parsed.data.newEmail, callbackURL: "/account" },
          headers,
          asResponse: true,
        }),
      );
      // Same answer whether or not the new address is taken (no enumeration).
      if (!result.ok && result.status >= 500) return fail({ formError: messageFor(result.code) }, 500);
      return data<AccountResult>({ intent, done: "auth:account.emailSent", email: user.email });
    }
    case "link": {
      const provider = String(form.get("provider") ?? "");
      if (!configuredProviders(app.env).includes(provider)) return fail({ formError: "auth:errors.oauthFailed" });
      const result = await callAuth(() =>
        auth.api.linkSocialAccount({ body: { provider, callbackURL: "/account" }, headers, asResponse: true }),
      );
      const url =
        result.body && typeof result.body === "object" && "url" in result.body ? String(result.body.url) : null;
      if (!result.ok || !url) return fail({ formError: "auth:errors.oauthFailed" }, 502);
      throw redirect(url, { headers: cookieHeaders(result.headers) });
    }
    case "unlink": {
      const accountId = String(form.get("accountId") ?? "");
      const accounts = await auth.api.listUserAccounts({ headers });
      if (accounts.length <= 1) return fail({ formError: "auth:account.unlinkLast" });
      const result = await callAuth(() => auth.api.unlinkAccount({ body: { accountId }, headers, asResponse: true }));
      if (!result.ok) return fail({ formError: messageFor(result.code) });
      return data<AccountResult>({ intent, done: "auth:account.unlinked" });
    }
    case "revokeOthers": {
      const result = await callAuth(() => auth.api.revokeOtherSessions({ headers, asResponse: true }));
      if (!result.ok) return fail({ formError: messageFor(result.code) }, 500);
      return data<AccountResult>({ intent, done: "auth:account.revoked" });
    }
    case "notifications": {
      const on = form.get("replyNotifications") === "on";
      await app.db.transaction().execute(async (trx) => {
        await setReplyNotifications(trx, user.id, on);
        // The mail is in the language of the page the choice was made on.
        await rememberLocale(trx, user.id, getRequest(context).locale);
      });
      return data<AccountResult>({
        intent,
        done: on ? "auth:account.notificationsOn" : "auth:account.notificationsOff",
      });
    }
    case "delete": {
      const parsed = validate(deleteAccountSchema, form);
      if (!parsed.ok) return fail({ fieldErrors: parsed.errors });
      const limited = await checkFormLimits<AccountResult>(context, "signIn", user.email, { intent });
      if (limited) return limited;
      const hasPassword = (await auth.api.listUserAccounts({ headers })).some((a) => a.providerId === "credential");
      if (hasPassword && !parsed.data.password)
        return fail({ fieldErrors: { password: "auth:errors.passwordRequired" } });
      const result = await callAuth(() =>
        auth.api.deleteUser({
          body: hasPassword ? { password: parsed.data.password } : {},
          headers,
          asResponse: true,
        }),
      );
      if (result.code === "INVALID_PASSWORD") return fail({ fieldErrors: { password: "auth:account.wrongPassword" } });
      if (!result.ok) return fail({ formError: messageFor(result.code) }, result.status >= 500 ? 500 : 400);
      getRequest(context).log.info({ userId: user.id }, "account deleted by its owner");
      throw redirect("/", {
        headers: flashHeaders(flashOptions(app.env), "info", "flash.accountDeleted", cookieHeaders(result.headers)),
      });
    }
    default:
      return fail({ formError: "auth:errors.internalError" });
  }
}

export const headers = retryAfterHeaders;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, "auth:account.title", [NOINDEX]);
}

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const m = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const { policy } = loaderData;
  const vars = { min: policy.minLength, max: policy.maxLength, seconds: actionData?.retryAfter ?? 60 };
  const deleteValidation = useClientValidation(() =>
    import("../../lib/schemas/auth.ts").then((m) => m.deleteAccountSchema),
  );
  const errorsFor = (intent: Intent) => {
    if (intent === "delete" && deleteValidation.clientErrors) return deleteValidation.clientErrors;
    return actionData?.intent === intent ? (actionData.fieldErrors ?? {}) : {};
  };
  const notice = (intent: Intent) =>
    actionData?.intent === intent ? (
      actionData.done ? (
        <FormAlert tone="success">{m(actionData.done, { email: actionData.email ?? "" })}</FormAlert>
      ) : actionData.formError ? (
        <FormAlert>{m(actionData.formError, vars)}</FormAlert>
      ) : null
    ) : null;
  const providerName = (id: string) => (id === "credential" ? t("account.methodPassword") : (PROVIDER_NAMES[id] ?? id));

  return (
    <div className="mx-auto max-w-xl space-y-8">
      <header>
        <h1 className="text-2xl font-bold">{t("account.title")}</h1>
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">{t("account.signedInAs", { email: loaderData.email })}</p>
      </header>

      <Section id="profile-title" title={t("account.profileTitle")}>
        {notice("profile")}
        {loaderData.profile.authorPath && (
          <p className="text-sm">
            <Link to={loaderData.profile.authorPath} className="text-blue-700 underline dark:text-blue-400">
              {t("account.authorPage")}
            </Link>
          </p>
        )}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="profile" />
          <DisplayNameField defaultValue={loaderData.profile.name} error={errorsFor("profile").name} />
          <Field
            label={t("account.bio")}
            name="bio"
            rows={3}
            maxLength={BIO_MAX}
            defaultValue={loaderData.profile.bio}
            hint={t("account.bioHint", { max: BIO_MAX })}
            error={errorsFor("profile").bio ? m(errorsFor("profile").bio ?? "", { max: BIO_MAX }) : null}
          />
          {loaderData.canUpload && (
            <div className="space-y-2">
              <Field
                label={t("account.avatar")}
                name="avatar"
                defaultValue={loaderData.profile.image}
                hint={t("account.avatarHint")}
                error={errorsFor("profile").avatar ? m(errorsFor("profile").avatar ?? "") : null}
              />
              <p className="text-sm">
                <Link to="/admin/media" className="text-blue-700 underline dark:text-blue-400">
                  {t("account.avatarLibrary")}
                </Link>
              </p>
            </div>
          )}
          <SubmitButton busy={busy}>{t("account.profileSubmit")}</SubmitButton>
        </Form>
      </Section>

      <Section id="password-title" title={t("account.passwordTitle")}>
        {notice("password")}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="password" />
          <Field
            label={t("account.currentPassword")}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={errorsFor("password").currentPassword ? m(errorsFor("password").currentPassword ?? "", vars) : null}
          />
          <NewPasswordField
            label={t("newPassword")}
            policy={policy}
            error={errorsFor("password").password ? m(errorsFor("password").password ?? "", vars) : null}
          />
          <SubmitButton busy={busy}>{t("account.passwordSubmit")}</SubmitButton>
        </Form>
      </Section>

      <Section id="email-title" title={t("account.emailTitle")}>
        {notice("email")}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="email" />
          <EmailField
            label={t("account.newEmail")}
            name="newEmail"
            error={errorsFor("email").newEmail ? m(errorsFor("email").newEmail ?? "") : null}
          />
          <SubmitButton busy={busy}>{t("account.emailSubmit")}</SubmitButton>
        </Form>
      </Section>

      <Section id="methods-title" title={t("account.methodsTitle")}>
        {notice("unlink")}
        {notice("link")}
        <ul className="space-y-2">
          {loaderData.methods.map((method) => (
            <li key={`${method.providerId}:${method.accountId}`} className="flex items-center justify-between gap-4">
              <span>{providerName(method.providerId)}</span>
              {loaderData.methods.length > 1 ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="unlink" />
                  <input type="hidden" name="accountId" value={method.accountId} />
                  <button type="submit" className="text-sm text-red-700 underline dark:text-red-400">
                    {t("account.unlink", { provider: providerName(method.providerId) })}
                  </button>
                </Form>
              ) : (
                <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("account.unlinkLast")}</span>
              )}
            </li>
          ))}
        </ul>
        {loaderData.linkable.map((provider) => (
          <Form method="post" key={provider}>
            <input type="hidden" name="intent" value="link" />
            <input type="hidden" name="provider" value={provider} />
            <button
              type="submit"
              className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
            >
              {t("account.link", { provider: providerName(provider) })}
            </button>
          </Form>
        ))}
      </Section>

      <Section id="sessions-title" title={t("account.sessionsTitle")}>
        {notice("revokeOthers")}
        <p>{t("account.sessionsCount", { count: loaderData.sessionCount })}</p>
        <Form method="post">
          <input type="hidden" name="intent" value="revokeOthers" />
          <button
            type="submit"
            className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-900"
          >
            {t("account.revokeOthers")}
          </button>
        </Form>
      </Section>

      <Section id="notifications-title" title={t("account.notificationsTitle")}>
        {notice("notifications")}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="intent" value="notifications" />
          <div className="flex items-center gap-2">
            <input
              key={String(loaderData.replyNotifications)}
              id="reply-notifications"
              type="checkbox"
              name="replyNotifications"
              defaultChecked={loaderData.replyNotifications}
              className="h-4 w-4"
            />
            <label htmlFor="reply-notifications">{t("account.replyNotifications")}</label>
          </div>
          <SubmitButton busy={busy}>{t("account.notificationsSubmit")}</SubmitButton>
        </Form>
      </Section>

      <Section id="delete-title" title={t("account.deleteTitle")}>
        {notice("delete")}
        <p className="text-sm">{t("account.deleteIntro")}</p>
        <Form
          method="post"
          noValidate
          onSubmit={deleteValidation.onSubmit}
          onFocus={deleteValidation.onFocus}
          className="space-y-4"
        >
          <input type="hidden" name="intent" value="delete" />
          {loaderData.methods.some((mth) => mth.providerId === "credential") && (
            <Field
              label={t("password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              error={errorsFor("delete").password ? m(errorsFor("delete").password ?? "", vars) : null}
            />
          )}
          <Field
            label={t("account.deleteConfirm")}
            name="confirm"
            required
            error={errorsFor("delete").confirm ? m(errorsFor("delete").confirm ?? "") : null}
          />
          <button
            type="submit"
            disabled={busy}
            className="w-full rounded-md bg-red-700 px-4 py-2 font-medium text-white hover:bg-red-800 disabled:opacity-60"
          >
            {t("account.deleteSubmit")}
          </button>
        </Form>
      </Section>
    </div>
  );
}
