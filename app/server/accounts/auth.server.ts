import { createHash } from "node:crypto";
import { hasRequestState, queueAfterTransactionHook } from "@better-auth/core/context";
import type { SecondaryStorage } from "@better-auth/core/db";
import { betterAuth } from "better-auth";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { Logger } from "pino";
import { OIDC_TEST_PROVIDER } from "../../lib/auth-providers.ts";
import { checkDisplayName, cleanDisplayName } from "../../lib/display-name.ts";
import { isLocale, type Locale } from "../../lib/i18n/locale.ts";
import { missingClasses } from "../../lib/schemas/auth.ts";
import type { DB } from "../db/db.server.ts";
import { hit, LIMITS, type RateLimitStore, scaled } from "../http/rate-limit.server.ts";
import type { Mailer, MailMessage } from "../mail/message.server.ts";
import { mailSiteName } from "../mail/site-name.server.ts";
import { rememberLocale } from "../notify/notification-prefs.server.ts";
import type { Env } from "../platform/env.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";
import { newId } from "../platform/ids.server.ts";
import { getSiteSettings } from "../site/site-settings.server.ts";
import { BANNED_CODE, isUserBanned, recordSignIn } from "./admin-users.server.ts";
import { isAdminEmail } from "./admins.server.ts";
import { CLIENT_IP_HEADER, LOCALE_HEADER } from "./auth-config.server.ts";
import {
  changeEmailTarget,
  emailReserved,
  localeOf,
  MAY_CREATE_USER,
  NAME_CODES,
  NAME_MESSAGES,
  NAME_PATHS,
  PASSWORD_FIELDS,
  registrationClosed,
  registrationState,
} from "./auth-rules.server.ts";
import { authMail } from "./mail-templates.server.ts";
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_FLOOR,
  passwordPolicy,
  registrationAllowed,
  registrationBypassed,
} from "./password-policy.server.ts";
import { ensureHandle } from "./profiles.server.ts";

// Loaded on first use only, through auth-loader.server.ts: anything the reading pages
// need (the headers, the providers) lives in auth-config.server.ts.
export { PASSWORD_MAX_LENGTH } from "./password-policy.server.ts";

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
  // The site's name is read then too (a read inside the transaction would wait for it).
  const mailer = {
    send: (locale: Locale, compose: (site: string) => MailMessage) =>
      queueAfterTransactionHook(async () => {
        const message = compose(await mailSiteName(db, locale));
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
          const locale = localeOf(request);
          await mailer.send(locale, (site) =>
            authMail("changeEmailConfirm", locale, site, {
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
        const locale = localeOf(request);
        await mailer.send(locale, (site) =>
          authMail("resetPassword", locale, site, { to: user.email, url: link("/reset-password", token) }),
        );
      },
      onExistingUserSignUp: async ({ user }, request) => {
        const locale = localeOf(request);
        await mailer.send(locale, (site) =>
          authMail("existingAccount", locale, site, { to: user.email, url: `${env.publicUrl}/forgot-password` }),
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
        const locale = localeOf(request);
        await mailer.send(locale, (site) =>
          newEmail
            ? authMail("changeEmailVerify", locale, site, {
                to: newEmail,
                url: link("/verify-email", token),
                email: newEmail,
                name: user.name,
              })
            : authMail("verifyEmail", locale, site, { to: user.email, url: link("/verify-email", token) }),
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
            // An OAuth provider's profile name is cleaned (the e-mail sign-up was checked above);
            // none, or one that is an e-mail address, gives a neutral name the user can change.
            return { data: { ...user, name: providerDisplayName(user.name) } };
          },
          // The author-page handle, once the row is committed (it reads other users' handles).
          after: async (user) => {
            try {
              await ensureHandle(db, user.id);
            } catch (error) {
              log.warn({ err: error }, "could not give a new account its handle yet; it gets one on first use");
            }
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
          after: async (session, context) => {
            await recordSignIn(db, session.userId);
            // The language they sign in with is the one mail we send them unasked uses.
            const locale = context?.headers?.get(LOCALE_HEADER);
            if (isLocale(locale)) await rememberLocale(db, session.userId, locale);
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
    // Our own limiter (app/server/http/rate-limit.server.ts) guards every entry point,
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

const LOOKS_LIKE_ADDRESS = /\S@\S/;

/**
 * The name of an account an OAuth provider creates: the profile's name, cleaned;
 * when it has none or it holds an e-mail address, "reader-" and six random
 * characters (never a piece of the address). The account page changes it.
 */
export function providerDisplayName(raw: string | null | undefined): string {
  const cleaned = cleanDisplayName(raw ?? "");
  return cleaned && !LOOKS_LIKE_ADDRESS.test(cleaned) ? cleaned : `reader-${newId().slice(0, 6)}`;
}
