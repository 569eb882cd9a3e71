import type { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { testRouterContext } from "../../../tests/setup/router-context.ts";
import { lazyModule } from "../platform/lazy-module.server.ts";
import type { Auth } from "./auth.server.ts";
import { getUser } from "./session.server.ts";

// getUser asks better-auth only when the request could carry a session: anonymous
// readers (most requests) never reach its endpoint pipeline.

function contextWith(getSession: () => Promise<null>): RouterContextProvider {
  const auth = { api: { getSession } } as Pick<Auth, "api"> as Auth;
  return testRouterContext({ auth: lazyModule(async () => auth) });
}

describe("getUser", () => {
  it("answers null without asking better-auth when no cookie of ours is sent", async () => {
    const sent: Record<string, string>[] = [{}, { cookie: "lang=zh" }, { cookie: "theme=dark; other.session_token=x" }];
    for (const headers of sent) {
      let asked = 0;
      const context = contextWith(async () => {
        asked++;
        return null;
      });
      expect(await getUser(context, new Request("http://blog.test/", { headers }))).toBeNull();
      expect(asked).toBe(0);
    }
  });

  it.each(["inkwell.session_token=abc", "lang=en; __Secure-inkwell.session_token=abc"])(
    "asks better-auth once per request when %j is sent",
    async (cookie) => {
      let asked = 0;
      const context = contextWith(async () => {
        asked++;
        return null;
      });
      const request = new Request("http://blog.test/", { headers: { cookie } });
      expect(await getUser(context, request)).toBeNull();
      expect(await getUser(context, request)).toBeNull();
      expect(asked).toBe(1);
    },
  );
});
