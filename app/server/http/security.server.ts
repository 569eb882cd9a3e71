import { randomBytes } from "node:crypto";

export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/**
 * The Content-Security-Policy for HTML responses. Scripts run only from our origin
 * or with this response's nonce; no plugins, no <base>, no framing.
 */
export function contentSecurityPolicy(
  nonce: string,
  opts: { dev: boolean; connectExtra?: readonly string[]; frameExtra?: readonly string[] },
): string {
  const script = opts.dev ? `'self' 'nonce-${nonce}' 'unsafe-eval'` : `'self' 'nonce-${nonce}'`;
  // Only the /solana pages add sources here (their RPC); every other page stays on 'self'.
  const connect = [...(opts.dev ? ["'self'", "ws:", "wss:"] : ["'self'"]), ...(opts.connectExtra ?? [])]
    .filter((v, i, all) => all.indexOf(v) === i)
    .join(" ");
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    `connect-src ${connect}`,
    // Only /solana with WalletConnect on names a frame source (the relay's Verify page).
    ...(opts.frameExtra?.length ? [`frame-src ${opts.frameExtra.join(" ")}`] : []),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(
  nonce: string,
  opts: { dev: boolean; https: boolean; connectExtra?: readonly string[]; frameExtra?: readonly string[] },
): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(nonce, opts),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  };
  if (opts.https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a state-changing request comes from another site (CSRF): its Origin is
 * neither the address it was sent to nor PUBLIC_URL, or the browser says
 * `Sec-Fetch-Site: cross-site`. Requests without either header (curl, old
 * browsers) are let through: cookies are SameSite=Lax, and the header checks
 * are the second line.
 */
export function isCrossSiteWrite(request: {
  method: string;
  origin: string | undefined;
  secFetchSite: string | undefined;
  /** `protocol://host` the request was sent to. */
  selfOrigin: string;
  publicUrl: string;
}): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  if (request.secFetchSite === "cross-site") return true;
  if (!request.origin) return false;
  if (request.origin === "null") return true;
  let origin: string;
  try {
    origin = new URL(request.origin).origin;
  } catch {
    return true;
  }
  const allowed = [request.selfOrigin];
  try {
    allowed.push(new URL(request.publicUrl).origin);
  } catch {
    // No usable PUBLIC_URL: only the address itself counts.
  }
  return !allowed.includes(origin);
}
