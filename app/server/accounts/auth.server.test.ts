import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import en from "../../../locales/en/auth.json" with { type: "json" };
import { startOidcProvider } from "../../../tests/setup/oidc-provider.ts";
import { createTestDatabase, type TestDatabase } from "../../../tests/setup/test-db.ts";
import { OIDC_TEST_PROVIDER } from "../../lib/auth-providers.ts";
import { parseEnv } from "../platform/env.server.ts";
import { createAuth } from "./auth.server.ts";
import { configuredProviders } from "./auth-config.server.ts";
import { oauthErrorMessage } from "./guard.server.ts";

const PROVIDER_ENV = {
  GOOGLE_CLIENT_ID: "google-id",
  GOOGLE_CLIENT_SECRET: "google-secret",
  GITHUB_CLIENT_ID: "github-id",
  GITHUB_CLIENT_SECRET: "github-secret",
  TWITTER_CLIENT_ID: "twitter-id",
  TWITTER_CLIENT_SECRET: "twitter-secret",
};

const SCOPES: Record<string, string[]> = {
  google: ["openid", "email", "profile"],
  github: ["read:user", "user:email"],
  twitter: ["users.read", "tweet.read", "offline.access", "users.email"],
};

const envWith = (vars: Record<string, string>) =>
  parseEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "inkwell-auth-")),
    PUBLIC_URL: "http://blog.example.test",
    LOG_LEVEL: "silent",
    ...vars,
  });

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.cleanup();
});

const authFor = (env: ReturnType<typeof parseEnv>) =>
  createAuth({
    db: database.db,
    env,
    mailer: { send: async () => {}, target: "test" },
    log: pino({ level: "silent" }),
  });

/** The providers better-auth itself ended up with (after plugins ran). */
async function providerIds(auth: ReturnType<typeof authFor>): Promise<string[]> {
  const context = await auth.$context;
  return context.socialProviders.map((p) => p.id).sort();
}

/** The client id and scopes better-auth puts on the provider's authorization URL. */
async function authorizationRequest(auth: ReturnType<typeof authFor>, provider: string) {
  const started = await auth.api.signInSocial({ body: { provider, callbackURL: "/" } });
  if (!started.url) throw new Error(`no authorization URL for ${provider}`);
  const params = new URL(started.url).searchParams;
  return { clientId: params.get("client_id"), scopes: (params.get("scope") ?? "").split(" ").filter(Boolean) };
}

describe("createAuth social providers", () => {
  it("configures Google, GitHub and X when their client id and secret are set", async () => {
    const auth = authFor(envWith(PROVIDER_ENV));
    expect(await providerIds(auth)).toEqual(["github", "google", "twitter"]);
  });

  it.each(Object.entries(SCOPES))("asks %s for exactly the scopes we need", async (provider, scopes) => {
    const auth = authFor(envWith(PROVIDER_ENV));
    const request = await authorizationRequest(auth, provider);
    expect(request.clientId).toBe(`${provider}-id`);
    // Each once: no defaults of better-auth's added on top.
    expect(request.scopes.sort()).toEqual([...scopes].sort());
  });

  it("configures no provider without credentials", async () => {
    const env = envWith({});
    const auth = authFor(env);
    expect(await providerIds(auth)).toEqual([]);
    expect(configuredProviders(env)).toEqual([]);
    await expect(auth.api.signInSocial({ body: { provider: "google", callbackURL: "/" } })).rejects.toThrow();
  });

  it("configures only the providers that have credentials", async () => {
    const env = envWith({ GITHUB_CLIENT_ID: "github-id", GITHUB_CLIENT_SECRET: "github-secret" });
    expect(await providerIds(authFor(env))).toEqual(["github"]);
    expect(configuredProviders(env)).toEqual(["github"]);
  });
});

describe("configuredProviders (the login page's buttons)", () => {
  it("lists exactly the providers better-auth serves, the test OpenID provider last", async () => {
    const oidc = await startOidcProvider({ redirectUris: ["http://blog.example.test/api/auth/callback/oidc-test"] });
    try {
      const env = envWith({
        ...PROVIDER_ENV,
        OIDC_TEST_DISCOVERY_URL: oidc.discoveryUrl,
        OIDC_TEST_CLIENT_ID: oidc.clientId,
        OIDC_TEST_CLIENT_SECRET: oidc.clientSecret,
      });
      const listed = configuredProviders(env);
      expect(listed).toEqual(["google", "github", "twitter", OIDC_TEST_PROVIDER]);
      expect(await providerIds(authFor(env))).toEqual([...listed].sort());
    } finally {
      await oidc.close();
    }
  });

  it("leaves the test OpenID provider out when it is not configured", () => {
    expect(configuredProviders(envWith({ TWITTER_CLIENT_ID: "t", TWITTER_CLIENT_SECRET: "s" }))).toEqual(["twitter"]);
  });
});

describe("oauthErrorMessage", () => {
  it("explains a refused link and falls back to a general failure", () => {
    expect(oauthErrorMessage("account_not_linked")).toBe("auth:errors.oauthNoVerifiedEmail");
    expect(oauthErrorMessage("too_many_requests")).toBe("auth:errors.tooManyRequests");
    expect(oauthErrorMessage("state_mismatch")).toBe("auth:errors.oauthFailed");
    expect(oauthErrorMessage("access_denied")).toBe("auth:errors.oauthFailed");
    for (const key of ["oauthNoVerifiedEmail", "oauthFailed", "tooManyRequests"] as const) {
      expect(en.errors[key]).toBeTruthy();
    }
  });
});
