import { type LazyModule, lazyModule } from "../platform/lazy-module.server.ts";
import type { Auth, AuthDeps } from "./auth.server.ts";

// better-auth and its dependencies load on first use, not at boot: anonymous readers (no
// session cookie of ours) never need them (issue 24, decision 024 "Memory and uncached
// speed"). The first request with a session cookie, the first /api/auth/* call, the sign-in
// and account forms and the admin actions that sign users out load it.

/** The server's better-auth instance, made on the first call; later calls share it. */
export type AuthLoader = LazyModule<Auth>;

/**
 * Imports auth.server.ts (and with it better-auth) and makes the instance on the first
 * call. Concurrent first callers share one import; a failed one is tried again next call.
 */
export function lazyAuth(deps: AuthDeps): AuthLoader {
  return lazyModule(async () => (await import("./auth.server.ts")).createAuth(deps));
}

/**
 * Signs the user out everywhere, wherever the sessions live: after a ban or an
 * account deletion has committed (the database rows go in that transaction; with
 * Redis, only better-auth knows the session keys).
 */
export async function revokeUserSessions(auth: () => Promise<Auth>, userId: string): Promise<void> {
  const context = await (await auth()).$context;
  await context.internalAdapter.deleteUserSessions(userId);
}
