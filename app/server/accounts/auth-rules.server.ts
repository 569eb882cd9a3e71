import { defineRequestState, tryGetCurrentAuthEndpointContext } from "@better-auth/core/context";
import { APIError } from "better-auth/api";
import { DISPLAY_NAME_MAX, type NameProblem } from "../../lib/display-name.ts";
import { DEFAULT_LOCALE, isLocale, type Locale, localeFromRequest, resolveLocale } from "../../lib/i18n/locale.ts";
import { LOCALE_HEADER } from "./auth-config.server.ts";

// The rules createAuth (auth.server.ts) applies to better-auth's endpoints: which
// paths set a name or a password, what a verification token says, which calls may
// create a user, and the language a mail is written in.

/** The endpoints whose body may set the user's name. */
export const NAME_PATHS = new Set(["/sign-up/email", "/update-user"]);
export const NAME_CODES: Record<NameProblem, string> = {
  required: "NAME_REQUIRED",
  tooLong: "NAME_TOO_LONG",
  invalid: "NAME_INVALID",
};
export const NAME_MESSAGES: Record<NameProblem, string> = {
  required: "A name is required",
  tooLong: `A name can have at most ${DISPLAY_NAME_MAX} characters`,
  invalid: "A name cannot contain control or text-direction characters",
};

/** The body field carrying a new password, per better-auth endpoint. */
export const PASSWORD_FIELDS: Record<string, string> = {
  "/sign-up/email": "password",
  "/reset-password": "newPassword",
  "/change-password": "newPassword",
  "/set-password": "newPassword",
};

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
export function changeEmailTarget(token: string): string | null {
  const updateTo = tokenClaims(token)?.updateTo;
  return typeof updateTo === "string" ? updateTo : null;
}

export const emailReserved = () =>
  new APIError("FORBIDDEN", {
    code: "EMAIL_RESERVED",
    message: "This address belongs to an admin; it can only be used by signing up or by an admin",
  });

/**
 * The endpoints that can create a user: e-mail sign-up, and the OAuth sign-ins
 * and their callbacks (a provider's first sign-in creates the account).
 */
export const MAY_CREATE_USER = /^\/(sign-up\/|sign-in\/(social|oauth2)|callback\/|oauth2\/callback\/)/;

/** Whether registration is open, read once per better-auth call (request-scoped). */
export const registrationState = defineRequestState<boolean | null>(() => null);

export const registrationClosed = () =>
  new APIError("FORBIDDEN", { code: "REGISTRATION_CLOSED", message: "Registration is closed" });

/**
 * The reader's language for a mail better-auth sends: the one our server decided for
 * the request, which it passes in LOCALE_HEADER to /api/auth/* and our forms pass on
 * with their `headers` (`request` is undefined for those server-side calls).
 */
export function localeOf(request: Request | undefined): Locale {
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
