import { pino } from "pino";
import { RouterContextProvider } from "react-router";
import { localePrefix, resolveLocale } from "../../app/lib/i18n/locale.ts";
import { DEFAULT_POLICY } from "../../app/lib/route-policy.ts";
import {
  type RequestState,
  requestContext,
  type Services,
  servicesContext,
} from "../../app/server/boot/context.server.ts";
import { newEffects } from "../../app/server/cache/render-cache.server.ts";
import { lazyModule } from "../../app/server/platform/lazy-module.server.ts";

/**
 * A React Router context as the server makes it for one request, for tests that call
 * a loader, an action or a server helper directly: the services a test provides
 * (the rest left out, as the test does not use them) and a fresh request state.
 */
export function testRouterContext(
  services: Partial<Services>,
  request: Partial<RequestState> = {},
): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(servicesContext, services as Services);
  context.set(requestContext, {
    id: "test",
    nonce: "nonce",
    clientIp: "127.0.0.1",
    locale: "en",
    prefix: "",
    log: pino({ level: "silent" }),
    policy: DEFAULT_POLICY,
    effects: newEffects(),
    read: { referer: null },
    ...request,
  });
  return context;
}

/** The locale and prefix the server would decide for a request to `url` with these headers. */
export function requestStateFor(
  url: string,
  headers: Headers = new Headers(),
): Pick<RequestState, "locale" | "prefix"> {
  const { pathname, host } = new URL(url);
  return {
    locale: resolveLocale({
      pathname,
      cookie: headers.get("cookie"),
      host,
      acceptLanguage: headers.get("accept-language"),
    }),
    prefix: localePrefix(pathname),
  };
}

/** A loader or action, however it answers (a value, `data()`, a Response, or one thrown). */
export type RouteHandler = (args: never) => Promise<unknown>;

/**
 * Calls a loader or action as React Router would and reads its answer: the status,
 * a redirect's location, and the body of `data()` or a plain value.
 */
export async function callRoute(
  handler: RouteHandler,
  args: { request: Request; context: RouterContextProvider; params?: Record<string, string | undefined> },
): Promise<{ status: number; location?: string | null; headers?: Headers; body?: unknown }> {
  try {
    const result = await handler(args as never);
    if (result instanceof Response) {
      return { status: result.status, location: result.headers.get("location"), headers: result.headers };
    }
    if (result && typeof result === "object" && "init" in result && "data" in result) {
      const init = (result as { init?: { status?: number } | null }).init;
      return { status: init?.status ?? 200, body: (result as { data: unknown }).data };
    }
    return { status: 200, body: result };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("location") };
    if (thrown && typeof thrown === "object" && "init" in thrown) {
      return { status: (thrown as { init?: { status?: number } | null }).init?.status ?? 500 };
    }
    throw thrown;
  }
}

/**
 * The auth loader a route test hands the server: `getSession` answers with `user` (or
 * nobody), so who may do what is still decided by the route. A user without
 * `emailVerified` is verified.
 */
export function fakeSessionAuth(
  user: ({ id: string; email: string } & { emailVerified?: boolean }) | null,
): Services["auth"] {
  const session = user
    ? { user: { name: "", image: null, emailVerified: true, ...user }, session: { id: "s", userId: user.id } }
    : null;
  return lazyModule(
    async () => ({ api: { getSession: async () => session } }) as unknown as Awaited<ReturnType<Services["auth"]>>,
  );
}
