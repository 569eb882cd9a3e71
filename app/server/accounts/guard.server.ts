import { data, type HeadersArgs, type RouterContextProvider } from "react-router";
import { getApp, getRequest } from "../boot/context.server.ts";
import { hitAll, LIMITS, type Limit, type LimitResult, scaled } from "../http/rate-limit.server.ts";
import { normalizeEmail } from "../platform/env.server.ts";

export { passwordPolicy } from "./password-policy.server.ts";

export type AuthEndpoint = "signIn" | "signUp" | "mail" | "contact" | "other";

/** The rate-limit keys for one auth attempt: per client address and, when known, per account. */
export function limitChecks(
  endpoint: AuthEndpoint,
  ip: string,
  email?: string,
  multiplier = 1,
): Array<{ key: string; limit: Limit }> {
  const account = email ? normalizeEmail(email) : null;
  const checks: Array<{ key: string; limit: Limit }> = [{ key: `auth:ip:${ip}`, limit: LIMITS.authPostPerIp }];
  if (endpoint === "signIn") {
    checks.push({ key: `signin:ip:${ip}`, limit: LIMITS.signInPerIp });
    if (account) checks.push({ key: `signin:acct:${account}`, limit: LIMITS.signInPerAccount });
  } else if (endpoint === "signUp") {
    checks.push({ key: `signup:ip:${ip}`, limit: LIMITS.signUpPerIp });
  } else if (endpoint === "contact") {
    checks.push({ key: `contact:ip:${ip}`, limit: LIMITS.contactPerIp });
    if (account) checks.push({ key: `contact:acct:${account}`, limit: LIMITS.contactPerAccount });
  } else if (endpoint === "mail") {
    checks.push({ key: `mail:ip:${ip}`, limit: LIMITS.mailPerIp });
    if (account) checks.push({ key: `mail:acct:${account}`, limit: LIMITS.mailPerAccount });
  }
  return checks.map((c) => ({ key: c.key, limit: scaled(c.limit, multiplier) }));
}

/** Counts one attempt at `endpoint` against every limit that applies (scaled by RATE_LIMIT_MULTIPLIER). */
export function hitAuthLimits(
  context: Readonly<RouterContextProvider>,
  endpoint: AuthEndpoint,
  email?: string,
): Promise<LimitResult> {
  const { rateLimits, env } = getApp(context);
  return hitAll(rateLimits, limitChecks(endpoint, getRequest(context).clientIp, email, env.rateLimitMultiplier));
}

export interface FormFailure {
  formError?: string;
  fieldErrors?: Record<string, string>;
  retryAfter?: number;
}

/**
 * A 429 carrying a form error when any limit is exceeded, else null. The action
 * returns it (a thrown one would skip the form and show the error page), and the
 * route's `headers` export (`retryAfterHeaders`) passes its Retry-After on.
 */
export async function checkFormLimits<T extends FormFailure = FormFailure>(
  context: Readonly<RouterContextProvider>,
  endpoint: AuthEndpoint,
  email?: string,
  extra: Partial<T> = {},
): Promise<ReturnType<typeof data<T>> | null> {
  const result = await hitAuthLimits(context, endpoint, email);
  if (result.allowed) return null;
  const failure = { ...extra, formError: "auth:errors.tooManyRequests", retryAfter: result.retryAfterSeconds };
  return data(failure as T, {
    status: 429,
    headers: { "Retry-After": String(result.retryAfterSeconds) },
  });
}

/**
 * For a route's `headers` export: document responses carry only the headers this
 * returns (plus cookies), so the action's Retry-After must be passed on here.
 */
export function retryAfterHeaders({ actionHeaders, errorHeaders }: HeadersArgs): Headers {
  const headers = new Headers();
  const retryAfter = errorHeaders?.get("Retry-After") ?? actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
}

/** Counts a mail-sending attempt; false when the address or account is over its mail limit. */
export async function mailAllowed(context: Readonly<RouterContextProvider>, email: string): Promise<boolean> {
  const result = await hitAuthLimits(context, "mail", email);
  return result.allowed;
}

export interface AuthCallResult {
  ok: boolean;
  status: number;
  code: string | null;
  headers: Headers;
  body: unknown;
}

/** Calls a better-auth endpoint as a Response and reads its outcome. */
export async function callAuth(run: () => Promise<Response>): Promise<AuthCallResult> {
  let response: Response;
  try {
    response = await run();
  } catch (error) {
    const status = typeof error === "object" && error && "statusCode" in error ? Number(error.statusCode) : 500;
    const body = typeof error === "object" && error && "body" in error ? (error.body as { code?: string }) : null;
    return { ok: false, status, code: body?.code ?? null, headers: new Headers(), body };
  }
  let body: unknown = null;
  const text = await response.text();
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  const code = body && typeof body === "object" && "code" in body && typeof body.code === "string" ? body.code : null;
  return { ok: response.ok, status: response.status, code, headers: response.headers, body };
}

/** Headers to send on with a redirect: every Set-Cookie of the auth response. */
export function cookieHeaders(from: Headers): Headers {
  const headers = new Headers();
  for (const cookie of from.getSetCookie()) headers.append("Set-Cookie", cookie);
  return headers;
}

/** better-auth's codes for a password the policy refuses (length, or our classes hook). */
export function isPasswordPolicyCode(code: string | null): boolean {
  return (
    code === "PASSWORD_TOO_SHORT" || code === "PASSWORD_TOO_LONG" || code === "PASSWORD_DOES_NOT_MEET_REQUIREMENTS"
  );
}

/** A name refused by the rule on better-auth's side (auth-rules NAME_CODES): the field's message, else null. */
export function nameErrorFor(code: string | null): string | null {
  switch (code) {
    case "NAME_REQUIRED":
      return "auth:errors.nameRequired";
    case "NAME_TOO_LONG":
      return "auth:errors.nameTooLong";
    case "NAME_INVALID":
      return "auth:errors.nameInvalid";
    default:
      return null;
  }
}

/** Error codes of better-auth mapped to our translated messages. */
export function messageFor(code: string | null): string {
  switch (code) {
    case "INVALID_EMAIL_OR_PASSWORD":
    case "INVALID_PASSWORD":
    case "USER_NOT_FOUND":
    case "CREDENTIAL_ACCOUNT_NOT_FOUND":
      return "auth:errors.invalidCredentials";
    case "EMAIL_NOT_VERIFIED":
      return "auth:errors.emailNotVerified";
    case "ACCOUNT_BANNED":
      return "auth:errors.bannedSignIn";
    case "PASSWORD_TOO_SHORT":
    case "PASSWORD_TOO_LONG":
    case "PASSWORD_DOES_NOT_MEET_REQUIREMENTS":
      return "auth:errors.passwordPolicy";
    case "REGISTRATION_CLOSED":
      return "auth:errors.registrationClosed";
    case "INVALID_ORIGIN":
    case "INVALID_CALLBACKURL":
    case "INVALID_CALLBACK_URL":
      return "auth:errors.unauthorizedDomain";
    default:
      return "auth:errors.internalError";
  }
}

/**
 * The message for the `error` code on the login page's URL when an OAuth sign-in
 * fails: better-auth's callback codes, and ours from routes/auth/login-provider.ts. `account_not_linked` is its refusal to attach a provider
 * to an existing account (accountLinking in auth.server.ts: the provider must
 * assert a verified e-mail and the local e-mail must be verified).
 */
export function oauthErrorMessage(code: string): string {
  switch (code) {
    case "REGISTRATION_CLOSED":
      return "auth:errors.registrationClosed";
    case "account_not_linked":
      return "auth:errors.oauthNoVerifiedEmail";
    case "too_many_requests":
      return "auth:errors.tooManyRequests";
    case "ACCOUNT_BANNED":
      return "auth:errors.bannedSignIn";
    default:
      return "auth:errors.oauthFailed";
  }
}
