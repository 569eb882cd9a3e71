import { OIDC_TEST_PROVIDER } from "../../lib/auth-providers.ts";
import type { Env } from "../platform/env.server.ts";

// What the rest of the server knows about sign-in without better-auth: the headers our
// adapter passes to it and the providers this server offers. Kept apart from
// auth.server.ts so the pages that need only these do not load better-auth (issue 24).

/** The header our adapter fills with the client address (after TRUST_PROXY). */
export const CLIENT_IP_HEADER = "x-inkwell-client-ip";

/** The header our adapter fills with the language decided for the request (URL prefix, cookie, …). */
export const LOCALE_HEADER = "x-inkwell-locale";

/**
 * The sign-in providers this server has credentials for, in button order: the
 * social providers from the environment, then the test OpenID provider.
 */
export function configuredProviders(env: Env): string[] {
  const social = (["google", "github", "twitter"] as const).filter((id) => env.oauth[id]);
  return [...social, ...(env.oidcTest ? [OIDC_TEST_PROVIDER] : [])];
}
