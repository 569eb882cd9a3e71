import { pino } from "pino";
import type { RouterContextProvider } from "react-router";
import type { Services } from "../../app/server/boot/context.server.ts";
import type { FederationService } from "../../app/server/federation/service.server.ts";
import { fakeSessionAuth, requestStateFor, testRouterContext } from "./router-context.ts";
import type { TestDatabase } from "./test-db.ts";

/** A signed-in user as the fake auth layer hands it out. */
export interface FakeUser {
  id: string;
  email: string;
  emailVerified: boolean;
}

export const TEST_URL_BASE = "http://blog.test";

export type RouteParams = Record<string, string | undefined>;

export interface RouteArgs {
  request: Request;
  context: RouterContextProvider;
  params: RouteParams;
}

/**
 * Requests to loaders and actions, called as React Router calls them, with the session
 * faked at the auth layer: `getSession` answers with the given user (or nobody), so who
 * may do what is still decided by the route on the server. `database` is read at each
 * call, as tests open their database in `beforeAll`.
 */
export function fakeSessionRequests(database: () => Pick<TestDatabase, "db" | "dialect">) {
  const contextFor = (user: FakeUser | null, path: string): RouterContextProvider => {
    const { db, dialect } = database();
    return testRouterContext(
      {
        db,
        dialect,
        env: { authSecret: "s".repeat(40), publicUrl: TEST_URL_BASE } as Services["env"],
        log: pino({ level: "silent" }),
        buildId: "build",
        auth: fakeSessionAuth(user),
        // Off, as on this http address (other servers only talk to https): the editor's
        // publish dialog asks it whether followers would get a post.
        federation: {
          status: async () => ({ on: false, reason: "needs-https" }),
        } as Pick<FederationService, "status"> as FederationService,
      },
      requestStateFor(`${TEST_URL_BASE}${path}`),
    );
  };
  /** A signed-in browser sends its session cookie (the fake auth layer does not read it). */
  const cookieOf = (user: FakeUser | null): Record<string, string> =>
    user ? { cookie: "inkwell.session_token=fake" } : {};

  const get = (path: string, user: FakeUser | null, params: RouteParams = {}): RouteArgs => ({
    request: new Request(`${TEST_URL_BASE}${path}`, { headers: cookieOf(user) }),
    context: contextFor(user, path),
    params,
  });

  const post = (
    path: string,
    user: FakeUser | null,
    fields: Record<string, string>,
    params: RouteParams = {},
  ): RouteArgs => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return {
      request: new Request(`${TEST_URL_BASE}${path}`, { method: "POST", body, headers: cookieOf(user) }),
      context: contextFor(user, path),
      params,
    };
  };

  return { contextFor, cookieOf, get, post };
}
