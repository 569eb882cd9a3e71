import { routePolicy } from "../../lib/route-policy.ts";
import { type AuthEndpoint, hitAuthLimits } from "../../server/accounts/guard.server.ts";
import { getUser } from "../../server/accounts/session.server.ts";
import { getApp } from "../../server/boot/context.server.ts";
import type { Route } from "./+types/auth";

export const handle = routePolicy({ cache: "none", writes: "none" });

// better-auth's handler at /api/auth/* (its standard paths). Every request goes
// through the same rate limits as our own forms first.

const PASSWORD_CHECKS = /^\/(?:change-password|delete-user|verify-password)$/;

const ENDPOINTS: Array<[RegExp, AuthEndpoint]> = [
  [/^\/sign-in\//, "signIn"],
  // Endpoints that check the signed-in user's password are password guesses too: they
  // count against the same per-account limit as signing in (/account's forms do the same).
  [PASSWORD_CHECKS, "signIn"],
  [/^\/sign-up\//, "signUp"],
  [/^\/(request-password-reset|forget-password|send-verification-email|change-email|verify-email)$/, "mail"],
];

async function emailFrom(request: Request): Promise<string | undefined> {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  try {
    const body = (await request.clone().json()) as { email?: unknown };
    return typeof body.email === "string" ? body.email.slice(0, 254) : undefined;
  } catch {
    return undefined;
  }
}

async function serveAuth(request: Request, context: Route.LoaderArgs["context"]): Promise<Response> {
  const app = getApp(context);
  // Reads count too: a GET such as /verify-email?token=… can make better-auth send mail.
  if (request.method !== "HEAD") {
    const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
    const endpoint = ENDPOINTS.find(([re]) => re.test(path))?.[1] ?? "other";
    // For the signed-in user's own account (its password, its address) the account is theirs.
    const ownAccount = PASSWORD_CHECKS.test(path) || path === "/change-email";
    const email = ownAccount ? (await getUser(context, request))?.email : await emailFrom(request);
    const result = await hitAuthLimits(context, endpoint, email);
    if (!result.allowed) {
      return Response.json(
        { code: "TOO_MANY_REQUESTS", message: "Too many requests" },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    }
  }
  const auth = await app.auth();
  const response = await auth.handler(request);
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "no-store");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return serveAuth(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return serveAuth(request, context);
}
