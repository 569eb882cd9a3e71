import { data, type RouterContextProvider, redirect } from "react-router";
import { getApp, getRequest, type RequestState, type Services } from "../boot/context.server.ts";
import { isAnonymous } from "../cache/render-cache.server.ts";
import { isAdminEmail } from "./admins.server.ts";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Computed on the server for every request: verified e-mail listed in `admins`. */
  isAdmin: boolean;
}

const cache = new WeakMap<RequestState, Promise<SessionUser | null>>();

/** The signed-in user the request's headers name, or null. */
export async function userOfHeaders(app: Pick<Services, "auth" | "db">, headers: Headers): Promise<SessionUser | null> {
  // Sessions live in our cookies only: without one there is nothing for better-auth to
  // look up, and most readers have none (this skips its whole endpoint pipeline).
  if (isAnonymous(headers.get("cookie"))) return null;
  const session = await (await app.auth()).api.getSession({ headers });
  if (!session) return null;
  const { user } = session;
  // A banned user is signed out (banning deletes sessions; this covers any left over).
  if (Number(user.banned) === 1) return null;
  const emailVerified = Boolean(user.emailVerified);
  const isAdmin = emailVerified && user.email.length > 0 && (await isAdminEmail(app.db, user.email));
  return { id: user.id, email: user.email, name: user.name, emailVerified, isAdmin };
}

/** The signed-in user of this request, or null (looked up once per request). */
export function getUser(context: Readonly<RouterContextProvider>, request: Request): Promise<SessionUser | null> {
  const key = getRequest(context);
  let pending = cache.get(key);
  if (!pending) {
    pending = userOfHeaders(getApp(context), request.headers);
    cache.set(key, pending);
  }
  return pending;
}

/** A same-origin relative path to return to, or "/" (never `//host`, `/\host` or a scheme). */
export function safeRedirectPath(target: string | null | undefined, fallback = "/"): string {
  if (!target || typeof target !== "string") return fallback;
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    return fallback;
  }
  if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return fallback;
  if (decoded.startsWith("//") || decoded.startsWith("/\\")) return fallback;
  // Control characters and line separators (raw or %-encoded) never make a useful target.
  if (CONTROL.test(decoded) || CONTROL.test(target)) return fallback;
  if (/^\/[^/]*:/.test(decoded) && /^[a-z][a-z0-9+.-]*:/i.test(decoded.slice(1))) return fallback;
  // A Location header takes ASCII only: /tags/中文 (a real page) goes out as /tags/%E4%B8%AD%E6%96%87.
  try {
    return target.replace(/[^\x21-\x7E]/gu, (c) => encodeURIComponent(c));
  } catch {
    return fallback; // a lone surrogate cannot be encoded
  }
}

const CONTROL = /[\p{Cc}\u2028\u2029]/u;

export async function requireUser(context: Readonly<RouterContextProvider>, request: Request): Promise<SessionUser> {
  const user = await getUser(context, request);
  if (!user) {
    const url = new URL(request.url);
    // A data request (client navigation, fetcher) gets a plain 401; the page shows
    // a sign-in link. Documents are sent to the login page and back.
    if (url.pathname.endsWith(".data")) throw data(null, { status: 401 });
    const back = safeRedirectPath(`${url.pathname.replace(/\.data$/, "")}${url.search}`);
    throw redirect(`/login?redirectTo=${encodeURIComponent(back)}`);
  }
  return user;
}

export async function requireAdmin(context: Readonly<RouterContextProvider>, request: Request): Promise<SessionUser> {
  const user = await requireUser(context, request);
  if (!user.isAdmin) throw data(null, { status: 403 });
  return user;
}
