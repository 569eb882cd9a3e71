import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { readCookie } from "../../lib/cookies.ts";
import { type FlashKey, type FlashKind, type FlashMessage, isFlashKey, isFlashKind } from "../../lib/flash.ts";

export const FLASH_COOKIE = "inkwell.flash";
/** Long enough to survive a redirect, short enough not to greet a later visit. */
const FLASH_MAX_AGE_SECONDS = 60;

export interface FlashOptions {
  /** Signs the cookie (the auth secret). */
  secret: string;
  /** Adds `Secure` when the site is served over https. */
  secure: boolean;
}

function sign(payload: string, secret: string): string {
  return createHmac("sha256", `flash:${secret}`).update(payload).digest("base64url");
}

function attributes(secure: boolean, maxAge: number): string {
  return `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** The Set-Cookie value that leaves one message for the next page. */
export function flashCookie(options: FlashOptions, kind: FlashKind, key: FlashKey): string {
  const message: FlashMessage = { kind, key, id: randomBytes(6).toString("base64url") };
  const payload = Buffer.from(JSON.stringify(message)).toString("base64url");
  return `${FLASH_COOKIE}=${payload}.${sign(payload, options.secret)}; ${attributes(options.secure, FLASH_MAX_AGE_SECONDS)}`;
}

/** The Set-Cookie value that removes the message once read. */
export function clearFlashCookie(secure: boolean): string {
  return `${FLASH_COOKIE}=; ${attributes(secure, 0)}`;
}

/**
 * Headers carrying a flash message, added to `headers` when given (e.g. the auth
 * cookies of a sign-in redirect).
 */
export function flashHeaders(options: FlashOptions, kind: FlashKind, key: FlashKey, headers = new Headers()): Headers {
  headers.append("Set-Cookie", flashCookie(options, kind, key));
  return headers;
}

/** Whether the request carries a flash cookie at all (valid or not): it must be cleared. */
export function hasFlashCookie(request: Request): boolean {
  return readCookie(request.headers.get("cookie"), FLASH_COOKIE) !== null;
}

/** The message of a request's flash cookie; null when absent, tampered with or not allowed. */
export function readFlash(request: Request, secret: string): FlashMessage | null {
  const raw = readCookie(request.headers.get("cookie"), FLASH_COOKIE);
  if (!raw) return null;
  const dot = raw.lastIndexOf(".");
  if (dot <= 0) return null;
  const payload = raw.slice(0, dot);
  const given = Buffer.from(raw.slice(dot + 1));
  const expected = Buffer.from(sign(payload, secret));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { kind, key, id } = parsed as Record<string, unknown>;
  if (!isFlashKind(kind) || !isFlashKey(key) || typeof id !== "string" || !/^[\w-]{1,32}$/.test(id)) return null;
  return { kind, key, id };
}

/** The signing secret and cookie flags for this site. */
export function flashOptions(env: { authSecret: string; publicUrl: string }): FlashOptions {
  return { secret: env.authSecret, secure: env.publicUrl.startsWith("https://") };
}
