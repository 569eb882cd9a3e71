import { redirect } from "react-router";
import { routePolicy } from "../../lib/route-policy.ts";
import { callAuth, cookieHeaders } from "../../server/accounts/guard.server.ts";
import { getApp, getRequest } from "../../server/boot/context.server.ts";
import { flashHeaders, flashOptions } from "../../server/http/flash.server.ts";
import type { Route } from "./+types/logout";

export const handle = routePolicy({ cache: "none", writes: "none" });

// Signing out is a POST only: it revokes the session on the server and clears the
// cookie. A GET changes nothing and goes home.
export async function loader() {
  throw redirect("/");
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  // A resource route gets none of React Router's Origin check for document
  // actions: refuse a sign-out posted from another site the same way.
  // Behind a proxy the request may name the instance, not the site: PUBLIC_URL counts too.
  const origin = request.headers.get("origin");
  if (origin && origin !== new URL(request.url).origin && origin !== new URL(app.env.publicUrl).origin) {
    return new Response("Forbidden", { status: 403 });
  }
  const auth = await app.auth();
  const result = await callAuth(() => auth.api.signOut({ headers: request.headers, asResponse: true }));
  if (!result.ok && result.status >= 500) getRequest(context).log.error({ code: result.code }, "sign-out failed");
  throw redirect("/", {
    headers: flashHeaders(flashOptions(app.env), "info", "flash.signedOut", cookieHeaders(result.headers)),
  });
}
