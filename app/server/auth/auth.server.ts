import { createHash } from "node:crypto";
import {
  defineRequestState,
  hasRequestState,
  queueAfterTransactionHook,
  tryGetCurrentAuthEndpointContext,
} from "@better-auth/core/context";
import type { SecondaryStorage } from "@better-auth/core/db";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Logger } from "pino";
import { OIDC_TEST_PROVIDER } from "../../lib/auth-providers.ts";
import { checkDisplayName, cleanDisplayName, DISPLAY_NAME_MAX, type NameProblem } from "../../lib/display-name.ts";
import { DEFAULT_LOCALE, isLocale, type Locale, localeFromRequest, resolveLocale } from "../../lib/i18n/locale.ts";
import { missingClasses } from "../../lib/schemas/auth.ts";
import type { DB } from "../db/db.server.ts";
import type { Env } from "../env.server.ts";
import { normalizeEmail } from "../env.server.ts";
import { newId } from "../ids.server.ts";
import type { Mailer, MailMessage } from "../mail.server.ts";
import { hit, LIMITS, type RateLimitStore, scaled } from "../rate-limit.server.ts";
import { BANNED_CODE, isUserBanned, recordSignIn } from "../repos/admin-users.server.ts";
import { isAdminEmail } from "../repos/admins.server.ts";
import { getSiteSettings } from "../repos/site-settings.server.ts";
import { authMail } from "./mail-templates.server.ts";
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_FLOOR,
  passwordPolicy,
  registrationAllowed,
  registrationBypassed,
} from "./password-policy.server.ts";

export { PASSWORD_MAX_LENGTH } from "./password-policy.server.ts";
/** The header our adapter fills with the client address (after TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-inkwell-client-ip";
/** The header our adapter fills with the language decided for the request (URL prefix, cookie, …). */
export const LOCALE_HEADER = "x-inkwell-locale";

/** The endpoints whose body may set the user's name. */
const NAME_PATHS = new Set(["/sign-up/email", "/update-user"]);
const NAME_CODES: Record<NameProblem, string> = {
  required: "NAME_REQUIRED",
  tooLong: "NAME_TOO_LONG",
  invalid: "NAME_INVALID",
};
const NAME_MESSAGES: Record<NameProblem, string> = {
  required: "A name is required",
  tooLong: `A name can have at most ${DISPLAY_NAME_MAX} characters`,
  invalid: "A name cannot contain control or text-direction characters",
};

/** The body field carrying a new password, per better-auth endpoint. */
const PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
};

export interface AuthDeps {
  db: DB;
  env: Env;
  mailer: Mailer;
  log: Logger;
  /**
   * Redis (REDIS_URL): sessions and verification values live there instead of the
   * database, shared by every instance. Null keeps them in the database.
   */
  secondaryStorage?: SecondaryStorage | null;
  /** After a user row changed or went away (a name on cached pages): the server drops rendered pages. */
  onUserChanged?: () => Promise<void>;
  /** Shared counters: mail per address and tokens used once (absent in unit tests of other rules). */
  rateLimits?: RateLimitStore;
}

/** The claims of a better-auth verification token (a JWT), or null when it is not one. */
function tokenClaims(token: string): Record<string, unknown> | null {
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The address a change-email token would move an account to, or null for a sign-up token. */
function changeEmailTarget(token: string): string | null {
  const updateTo = tokenClaims(token)?.updateTo;
  return typeof updateTo === "string" ? updateTo : null;
}

const emailReserved = () =>
  new APIError("FORBIDDEN", {
    code: "EMAIL_RESERVED",
    message: "This address belongs to an admin; it can only be used by signing up or by an admin",
  });

/**
 * The sign-in providers this server has credentials for, in button order: the
 * social providers from the environment, then the test OpenID provider.
 */
export function configuredProviders(env: Env): string[] {
  const social = (["google", "github", "twitter"] as const).filter((id) => env.oauth[id]);
  return [...social, ...(env.oidcTest ? [OIDC_TEST_PROVIDER] : [])];
}

/**
 * The endpoints that can create a user: e-mail sign-up, and the OAuth sign-ins
 * and their callbacks (a provider's first sign-in creates the account).
 */
const MAY_CREATE_USER = /^\/(sign-up\/|sign-in\/(social|oauth2)|callback\/|oauth2\/callback\/)/;

/** Whether registration is open, read once per better-auth call (request-scoped). */
const registrationState = defineRequestState<boolean | null>(() => null);

const registrationClosed = () =>
  new APIError("FORBIDDEN", { code: "REGISTRATION_CLOSED", message: "Registration is closed" });

/**
 * The reader's language for a mail better-auth sends: the one our server decided for
 * the request, which it passes in LOCALE_HEADER to /api/auth/* and our forms pass on
 * with their `headers` (`request` is undefined for those server-side calls).
 */
function localeOf(request: Request | undefined): Locale {
  const headers = request?.headers ?? tryGetCurrentAuthEndpointContext()?.headers;
  const decided = headers?.get(LOCALE_HEADER);
  if (isLocale(decided)) return decided;
  if (request) return localeFromRequest(request);
  if (!headers) return DEFAULT_LOCALE;
  return resolveLocale({
    pathname: "/",
    cookie: headers.get("cookie"),
    host: headers.get("host"),
    acceptLanguage: headers.get("accept-language"),
  });
}

/**
 * better-auth on our own database. It stores values the way the rest of our
 * schema does on both dialects (ISO text timestamps, 0/1 booleans), which is
 * better-auth's SQLite encoding: so it is told "sqlite" whatever the dialect
 * (docs/decisions/004-accounts.md).
 */
export function createAuth({
  db,
  env,
  mailer: outbox,
  log,
  secondaryStorage = null,
  onUserChanged,
  rateLimits,
}: AuthDeps) {
  // better-auth may call a mail callback inside its transaction, which holds SQLite's one
  // connection: the mail is queued once that work commits (never for work rolled back).
  // Every account mail to one address counts against one limit, whichever path (and
  // whichever replayed link) asked for it: no address can be bombed through us.
  const mailer = {
    send: (message: MailMessage) =>
      queueAfterTransactionHook(async () => {
        if (rateLimits) {
          const limit = scaled(LIMITS.mailPerAddress, env.rateLimitMultiplier);
          const allowed = await hit(rateLimits, `mail:to:${normalizeEmail(message.to)}`, limit);
          if (!allowed.allowed) {
            log.warn({ subject: message.subject }, "account mail to an address over its hourly limit; not sent");
            return;
          }
        }
        await outbox.send(message, { kind: "auth" });
      }),
  };
  const https = env.publicUrl.startsWith("https://");
  const link = (path: string, token: string) => `${env.publicUrl}${path}?token=${encodeURIComponent(token)}`;

  // Each provider asks for exactly these scopes: better-auth would add its own
  // defaults in front of them, so every scope would be requested twice.
  const socialProviders: Parameters<typeof betterAuth>[0]["socialProviders"] = {};
  if (env.oauth.google)
    socialProviders.google = { ...env.oauth.google, disableDefaultScope: true, scope: ["openid", "email", "profile"] };
  if (env.oauth.github)
    socialProviders.github = { ...env.oauth.github, disableDefaultScope: true, scope: ["read:user", "user:email"] };
  if (env.oauth.twitter)
    socialProviders.twitter = {
      ...env.oauth.twitter,
      disableDefaultScope: true,
      scope: ["users.read", "tweet.read", "offline.access", "users.email"],
    };

  return betterAuth({
    appName: "Inkwell",
    baseURL: env.publicUrl,
    basePath: "/api/auth",
    secret: env.authSecret,
    trustedOrigins: [env.publicUrl],
    database: { db, type: "sqlite", transaction: true },
    ...(secondaryStorage ? { secondaryStorage } : {}),
    logger: {
      log: (level, message, ...args) => {
        const method = level === "error" ? "error" : level === "warn" ? "warn" : "debug";
        log[method]({ args }, `better-auth: ${message}`);
      },
    },
    user: {
      modelName: "users",
      // Our ban flag (admin users section), so sessions carry it; never settable by users.
      additionalFields: {
        banned: { type: "number", required: false, defaultValue: 0, input: false },
      },
      changeEmail: {
        enabled: true,
        sendChangeEmailConfirmation: async ({ user, newEmail, token }, request) => {
          await mailer.send(
            authMail("changeEmailConfirm", localeOf(request), {
              to: user.email,
              url: link("/verify-email", token),
              email: newEmail,
            }),
          );
        },
      },
      deleteUser: { enabled: true },
    },
    session: {
      modelName: "sessions",
      expiresIn: 30 * 24 * 3600,
      updateAge: 24 * 3600,
      freshAge: 10 * 60,
    },
    account: {
      modelName: "accounts",
      accountLinking: {
        enabled: true,
        requireLocalEmailVerified: true,
        trustedProviders: [],
        allowDifferentEmails: false,
        allowUnlinkingAll: false,
      },
      encryptOAuthTokens: true,
    },
    verification: { modelName: "verifications" },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      // The floor only: the policy's own minimum (environment or site settings, which
      // can change at any time) is checked by the hook below on every path.
      minPasswordLength: PASSWORD_MIN_FLOOR,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      sendResetPassword: async ({ user, token }, request) => {
        await mailer.send(
          authMail("resetPassword", localeOf(request), { to: user.email, url: link("/reset-password", token) }),
        );
      },
      onExistingUserSignUp: async ({ user }, request) => {
        await mailer.send(
          authMail("existingAccount", localeOf(request), { to: user.email, url: `${env.publicUrl}/forgot-password` }),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Our login action resends, behind the mail rate limit (see routes/auth/login.tsx).
      sendOnSignIn: false,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 3600,
      sendVerificationEmail: async ({ user, token }, request) => {
        const newEmail = changeEmailTarget(token);
        // Attaching an address to an existing account is not a sign-up: the mail says so, and whose.
        await mailer.send(
          newEmail
            ? authMail("changeEmailVerify", localeOf(request), {
                to: newEmail,
                url: link("/verify-email", token),
                email: newEmail,
                name: user.name,
              })
            : authMail("verifyEmail", localeOf(request), { to: user.email, url: link("/verify-email", token) }),
        );
      },
    },
    socialProviders,
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            // Unknown (a path not in MAY_CREATE_USER): refused rather than guessed.
            const open = (await hasRequestState()) ? await registrationState.get() : null;
            if (open !== true && !registrationBypassed()) {
              log.warn("refused to create a user: registration is closed (or its state unknown)");
              throw registrationClosed();
            }
            // An OAuth provider's profile name is cleaned (the e-mail sign-up was checked above).
            return { data: { ...user, name: cleanDisplayName(user.name ?? "") } };
          },
        },
        // Whichever endpoint made them (/api/auth/update-user, delete-user, an admin action).
        update: {
          // A name from an OAuth provider's profile cannot be refused with a form error: cleaned.
          before: async (data) =>
            typeof data.name === "string" ? { data: { ...data, name: cleanDisplayName(data.name) } } : undefined,
          after: async () => onUserChanged?.(),
        },
        delete: { after: async () => onUserChanged?.() },
      },
      session: {
        create: {
          // A banned user gets no session on any path (password, OAuth, verification).
          // Thrown, so e-mail sign-in answers with this code and an OAuth callback
          // redirects to /login?error=ACCOUNT_BANNED (guard.server.ts maps both).
          // The user is read through better-auth's own adapter: a session can be created
          // inside its transaction (password change), where another query on our
          // single SQLite connection would wait forever.
          before: async (session, context) => {
            const user = context
              ? ((await context.context.internalAdapter.findUserById(session.userId)) as { banned?: unknown } | null)
              : { banned: (await isUserBanned(db, session.userId)) ? 1 : 0 };
            if (user && Number(user.banned) === 1) {
              throw new APIError("FORBIDDEN", { code: BANNED_CODE, message: "This account is banned" });
            }
          },
          // Sessions are deleted on sign-out, so the last sign-in is kept on the user.
          // (After hooks run once better-auth's transaction is over.)
          after: async (session) => {
            await recordSignIn(db, session.userId);
          },
        },
      },
    },
    hooks: {
      // The password policy (length and character classes, from the environment or
      // the site settings) holds on every path that sets a password, our forms and
      // /api/auth/* alike; and sign-up is refused while registration is closed.
      before: createAuthMiddleware(async (ctx) => {
        // Read here, before any transaction (on SQLite a read from inside better-auth's
        // would wait for its own connection), for the database hook below.
        if (MAY_CREATE_USER.test(ctx.path)) {
          const allowed = await registrationAllowed(db);
          await registrationState.set(allowed);
          if (ctx.path === "/sign-up/email" && !allowed) throw registrationClosed();
        }
        const body: unknown = ctx.body;
        // An admin's address is claimed by signing up, /setup or an admin, never by change-email.
        if (ctx.path === "/change-email" && body && typeof body === "object" && "newEmail" in body) {
          if (typeof body.newEmail === "string" && (await isAdminEmail(db, body.newEmail))) throw emailReserved();
        }
        if (ctx.path === "/verify-email" && typeof ctx.query?.token === "string") {
          const token = ctx.query.token;
          const target = changeEmailTarget(token);
          if (target && (await isAdminEmail(db, target))) throw emailReserved();
          // A verification link works once: replaying it (to send the next mail again) is refused.
          if (rateLimits) {
            const key = `token:used:${createHash("sha256").update(token).digest("base64url")}`;
            if (!(await hit(rateLimits, key, LIMITS.tokenUse)).allowed) {
              throw new APIError("BAD_REQUEST", { code: "TOKEN_USED", message: "This link was already used" });
            }
          }
        }
        // One rule for names on every path that sets one (the API as much as our forms).
        if (NAME_PATHS.has(ctx.path) && body && typeof body === "object" && "name" in body) {
          const checked = checkDisplayName(body.name);
          if (!checked.ok) {
            throw new APIError("BAD_REQUEST", {
              code: NAME_CODES[checked.problem],
              message: NAME_MESSAGES[checked.problem],
            });
          }
          (body as { name: string }).name = checked.name;
        }
        const field = PASSWORD_FIELDS[ctx.path];
        if (!field || !body || typeof body !== "object" || !(field in body)) return;
        const value = (body as Record<string, unknown>)[field];
        if (typeof value !== "string") return;
        const policy = passwordPolicy(env, await getSiteSettings(db));
        if (value.length < policy.minLength) {
          throw new APIError("BAD_REQUEST", { code: "PASSWORD_TOO_SHORT", message: "Password too short" });
        }
        if (missingClasses(value, policy).length > 0) {
          throw new APIError("BAD_REQUEST", {
            code: "PASSWORD_DOES_NOT_MEET_REQUIREMENTS",
            message: "Password does not meet the password policy",
          });
        }
      }),
    },
    // Every new account, whatever the path (e-mail or an OAuth provider's first
    // sign-in), passes here: none while registration is closed. The OAuth callback
    // sends the thrown code on to the login page (?error=REGISTRATION_CLOSED).
    // The generic OpenID Connect plugin carries only the test provider (when configured).
    plugins: [
      genericOAuth({
        config: env.oidcTest
          ? [
              {
                providerId: OIDC_TEST_PROVIDER,
                discoveryUrl: env.oidcTest.discoveryUrl,
                clientId: env.oidcTest.clientId,
                clientSecret: env.oidcTest.clientSecret,
                scopes: ["openid", "email", "profile"],
                pkce: true,
              },
            ]
          : [],
      }),
    ],
    // OAuth callbacks that fail before they know the sign-in's own error page
    // (no state, a state this browser did not start) land on our login page too.
    onAPIError: { errorURL: `${env.publicUrl}/login` },
    // Our own limiter (app/server/rate-limit.server.ts) guards every entry point,
    // including our actions that call auth.api directly.
    rateLimit: { enabled: false },
    advanced: {
      useSecureCookies: https,
      cookiePrefix: "inkwell",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure: https, path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => newId() },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Signs the user out everywhere, wherever the sessions live: after a ban or an
 * account deletion has committed (the database rows go in that transaction; with
 * Redis, only better-auth knows the session keys).
 */
export async function revokeUserSessions(auth: Auth, userId: string): Promise<void> {
  const context = await auth.$context;
  await context.internalAdapter.deleteUserSessions(userId);
}
