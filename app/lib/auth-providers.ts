/** The provider id of the local OpenID Connect provider used by the tests. */
export const OIDC_TEST_PROVIDER = "oidc-test";

/** Names shown on the sign-in buttons (brand names are not translated). */
export const PROVIDER_NAMES: Record<string, string> = {
  google: "Google",
  github: "GitHub",
  twitter: "X (Twitter)",
  [OIDC_TEST_PROVIDER]: "Test OpenID",
};
