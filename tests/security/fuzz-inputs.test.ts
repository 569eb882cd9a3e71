import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../setup/server-process.ts";
import { type Site, startSite } from "../setup/site.ts";
import { testDialect } from "../setup/test-db.ts";
import { signedInAccount } from "../setup/uploads.ts";

// Hardening round 2 (issue 19), finding 10: user-controlled redirect targets and a
// malformed Host answered 500. No input a person controls may produce a 5xx: the
// redirect cases by name, then random strings thrown at every kind of route's query,
// form and header inputs.

describe(`no input makes a 5xx (${testDialect()})`, () => {
  let site: Site;
  let server: ServerProcess;
  let cookie = "";

  beforeAll(async () => {
    site = await startSite({ LOG_LEVEL: "fatal", RENDER_CACHE: "false", RATE_LIMIT_MULTIPLIER: "1000" });
    server = site.server;
    cookie = (await signedInAccount(server.url, site.db, "fuzz")).cookie;
  });

  afterAll(async () => {
    await site?.stop();
  });

  const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...headers },
      body: new URLSearchParams(fields).toString(),
    });

  const enc = (s: string) => {
    try {
      return encodeURIComponent(s);
    } catch {
      return "%ED%A0%80"; // a lone surrogate, as a client could still send it
    }
  };
  const ascii = (s: string) => s.replace(/[^\x20-\x7E]/g, "?");
  const requests: Array<(v: string) => Promise<Response>> = [
    (v) => fetch(`${server.url}/login?redirectTo=${enc(v)}`, { headers: { cookie }, redirect: "manual" }),
    (v) => fetch(`${server.url}/search?q=${enc(v)}&page=${enc(v)}`),
    (v) => fetch(`${server.url}/posts/page/${enc(v)}`),
    (v) => fetch(`${server.url}/tags/${enc(v)}`),
    (v) => fetch(`${server.url}/zh/categories/${enc(v)}/page/${enc(v)}`),
    (v) => fetch(`${server.url}/posts/detail/${enc(v)}`),
    (v) => fetch(`${server.url}/verify-email?token=${enc(v)}`),
    (v) => fetch(`${server.url}/reset-password?token=${enc(v)}`),
    (v) => fetch(`${server.url}/subscribe/confirm?token=${enc(v)}`),
    (v) => fetch(`${server.url}/unsubscribe?token=${enc(v)}`),
    (v) => fetch(`${server.url}/api/files/${enc(v)}`, { headers: { cookie } }),
    (v) => fetch(`${server.url}/ads/${enc(v)}/click`, { redirect: "manual" }),
    (v) => fetch(`${server.url}/api/auth/verify-email?token=${enc(v)}`, { redirect: "manual" }),
    (v) => fetch(`${server.url}/${enc(v)}`),
    (v) => form("/locale", { locale: v, redirectTo: v }),
    (v) => form("/login", { email: v, password: v, redirectTo: v }),
    (v) => form("/register", { name: v, email: v, password: v }),
    (v) => form("/forgot-password", { email: v }),
    (v) => form("/contact", { name: v, email: `${v}@example.test`, message: v }),
    (v) => form("/subscribe", { email: v, locale: v }),
    (v) => form(`/posts/detail/${enc(v)}`, { intent: v, body: v, parentId: v }, { cookie }),
    (v) => form("/account", { intent: v, newEmail: v, currentPassword: v }, { cookie }),
    (v) =>
      fetch(`${server.url}/en`, {
        headers: {
          "accept-language": ascii(v),
          cookie: `locale=${ascii(v).replace(/;/g, "")}; solana_rpc=${enc(v)}`,
        },
      }),
    (v) => fetch(`${server.url}/solana`, { headers: { cookie: `solana_rpc=${enc(v)}` } }),
  ];

  it("sends a Chinese page back as a percent-encoded target, control characters to /", async () => {
    const signedIn = await fetch(`${server.url}/login?redirectTo=/tags/%E4%B8%AD%E6%96%87`, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe("/tags/%E4%B8%AD%E6%96%87");
    for (const bad of ["%E2%80%A8", "%00", "%0C"]) {
      const res = await fetch(`${server.url}/login?redirectTo=/a${bad}b`, { headers: { cookie }, redirect: "manual" });
      expect(res.status, bad).toBe(302);
      expect(res.headers.get("location"), bad).toBe("/");
    }
    const locale = await form("/locale", { locale: "zh", redirectTo: "/zh/tags/中文" });
    expect(locale.status).toBe(302);
    expect(locale.headers.get("location")).toBe("/zh/tags/%E4%B8%AD%E6%96%87");
  });

  it("refuses NUL in any input on either database, and stores none of it", async () => {
    // PostgreSQL cannot hold NUL in text and failed with a 500; SQLite stored it.
    for (const value of ["\u0000", "a\u0000b", "中文\u0000"]) {
      for (const [which, send] of requests.entries()) {
        const res = await send(value);
        await res.arrayBuffer();
        expect(res.status, `request ${which} with ${JSON.stringify(value)}`).toBeLessThan(500);
      }
    }
    const stored = await Promise.all([
      site.db.selectFrom("comments").select("bodyMarkdown").execute(),
      site.db.selectFrom("contactMessages").select(["name", "message"]).execute(),
    ]);
    expect(JSON.stringify(stored)).not.toContain("\\u0000");
  });

  it("answers random strings in queries, forms, paths and headers without a 5xx", async () => {
    // Any Unicode (controls, lone surrogates' neighbours, RTL marks), kept short.
    const text = fc.string({ unit: "binary", maxLength: 24 });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: requests.length - 1 }), text, async (which, value) => {
        const send = requests[which];
        if (!send) return;
        const res = await send(value);
        await res.arrayBuffer();
        expect(res.status, `request ${which} with ${JSON.stringify(value)}`).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
