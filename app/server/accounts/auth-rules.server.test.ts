import { describe, expect, it } from "vitest";
import { changeEmailTarget, localeOf, MAY_CREATE_USER } from "./auth-rules.server.ts";

const jwt = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.signature`;

describe("better-auth endpoint rules", () => {
  it("reads the new address from a change-email token, and nothing from other tokens", () => {
    expect(changeEmailTarget(jwt({ email: "old@example.test", updateTo: "new@example.test" }))).toBe(
      "new@example.test",
    );
    expect(changeEmailTarget(jwt({ email: "someone@example.test" }))).toBeNull();
    expect(changeEmailTarget("not-a-token")).toBeNull();
    expect(changeEmailTarget("a.%%%.b")).toBeNull();
    expect(changeEmailTarget(jwt({ updateTo: 42 }))).toBeNull();
  });

  it("knows which endpoints can create a user", () => {
    for (const path of [
      "/sign-up/email",
      "/sign-in/social",
      "/sign-in/oauth2",
      "/callback/github",
      "/oauth2/callback/oidc-test",
    ]) {
      expect(MAY_CREATE_USER.test(path), path).toBe(true);
    }
    for (const path of ["/sign-in/email", "/change-email", "/update-user", "/verify-email"]) {
      expect(MAY_CREATE_USER.test(path), path).toBe(false);
    }
  });

  it("writes a mail in the language the server decided, else the request's", () => {
    const decided = new Request("http://blog.test/api/auth/sign-up/email", { headers: { "x-inkwell-locale": "zh" } });
    expect(localeOf(decided)).toBe("zh");
    const fromPath = new Request("http://blog.test/zh/register");
    expect(localeOf(fromPath)).toBe("zh");
    const forged = new Request("http://blog.test/en/register", { headers: { "x-inkwell-locale": "fr" } });
    expect(localeOf(forged)).toBe("en");
  });
});
