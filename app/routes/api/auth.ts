import { type AuthEndpoint, hitAuthLimits } from "../../server/auth/guard.server.ts";
import { getApp } from "../../server/context.server.ts";
import type { Route } from "./+types/auth";

// better-auth's handler at /api/auth/* (its standard paths). Every write goes
// through the same rate limits as our own forms first.

const ENDPOINTS: Array<[RegExp, AuthEndpoint]> = [
  [/^\/sign-in\//, "signIn"],
  [/^\/sign-up\//, "signUp"],
  [/^\/(request-password-reset|forget-password|send-verification-email|change-email)$/, "mail"],
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

async function handle(request: Request, context: Route.LoaderArgs["context"]): Promise<Response> {
  const app = getApp(context);
  if (request.method !== "GET" && request.method !== "HEAD") {
    const path = new URL(request.url).pathname.replace(/^\/api\/auth/, "");
    const endpoint = ENDPOINTS.find(([re]) => re.test(path))?.[1] ?? "other";
    const result = await hitAuthLimits(app, endpoint, await emailFrom(request));
    if (!result.allowed) {
      return Response.json(
        { code: "TOO_MANY_REQUESTS", message: "Too many requests" },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    }
  }
  const response = await app.auth.handler(request);
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", "no-store");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  return handle(request, context);
}

export async function action({ request, context }: Route.ActionArgs) {
  return handle(request, context);
}
