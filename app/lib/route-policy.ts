/**
 * What a route declares about itself for the HTTP layer, in its `handle`
 * (`export const handle = routePolicy({ cache: "public" })`). One matcher
 * (app/server/http/route-policies.server.ts) reads it for every request; a layout's
 * policy applies to its children unless they declare their own value.
 */
export interface RoutePolicy {
  /**
   * "public": the same page for every anonymous reader, kept in the render cache and
   * briefly by a CDN. "none": never stored (signed-in readers always get this).
   */
  cache: "public" | "none";
  /**
   * What a successful write (POST, PUT, PATCH, DELETE) by a signed-in user changes:
   * "content" drops every instance's rendered pages before the answer goes out;
   * "none" for writes readers never see. Required on routes that have an action.
   */
  writes?: "content" | "none";
  /** Largest request body: BODY_LIMIT_BYTES ("default") or UPLOAD_MAX_BYTES plus framing ("upload"). */
  body?: "default" | "upload";
  /** "solana": the CSP lets the page reach the Solana RPC it chose (and WalletConnect's relay). */
  csp?: "default" | "solana";
  /**
   * "lean": a reading page. An anonymous reader gets a finished document with no React in the
   * browser, only the reader script (app/lean/reader.ts); a signed-in user gets the app as
   * usual. "app": every visitor gets the hydrated app (docs/decisions/024-lean-reading-pages.md).
   */
  js?: "lean" | "app";
}

export interface PolicyHandle {
  policy: Partial<RoutePolicy>;
}

/** A route module's `handle` with its policy. */
export function routePolicy(policy: Partial<RoutePolicy>): PolicyHandle {
  return { policy };
}

/** Whether a route module's `handle` declares a policy. */
export function policyOf(handle: unknown): Partial<RoutePolicy> | null {
  if (typeof handle !== "object" || handle === null || !("policy" in handle)) return null;
  const { policy } = handle as { policy: unknown };
  return typeof policy === "object" && policy !== null ? (policy as Partial<RoutePolicy>) : null;
}

/** A route matched nowhere (or declaring nothing) is treated as the strictest case. */
export const DEFAULT_POLICY: RoutePolicy = {
  cache: "none",
  writes: "content",
  body: "default",
  csp: "default",
  js: "app",
};

/** The policy of a matched branch: each level's declared values override its parent's. */
export function mergePolicies(levels: ReadonlyArray<Partial<RoutePolicy> | null>): RoutePolicy {
  const merged: RoutePolicy = { ...DEFAULT_POLICY };
  for (const level of levels) if (level) Object.assign(merged, level);
  return merged;
}
