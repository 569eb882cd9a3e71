import { describe, expect, it } from "vitest";
import { FLASH_KEYS } from "../../lib/flash.ts";
// The editor's and media library's messages live in the admin strings, which the
// pages those messages land on load (and the server always has).
import "../../lib/i18n/admin-strings.ts";
import { createI18n } from "../../lib/i18n/i18n.ts";
import {
  clearFlashCookie,
  FLASH_COOKIE,
  flashCookie,
  flashHeaders,
  hasFlashCookie,
  readFlash,
} from "./flash.server.ts";

const SECRET = "a-test-secret-that-is-long-enough-123";
const options = { secret: SECRET, secure: false };

/** The request a browser sends back after receiving `setCookie`. */
function requestWith(setCookie: string, extra = ""): Request {
  const pair = setCookie.split(";")[0] ?? "";
  return new Request("http://localhost/", { headers: { cookie: `${extra}${pair}` } });
}

function payloadOf(setCookie: string): { payload: string; signature: string } {
  const value = (setCookie.split(";")[0] ?? "").slice(FLASH_COOKIE.length + 1);
  const dot = value.lastIndexOf(".");
  return { payload: value.slice(0, dot), signature: value.slice(dot + 1) };
}

describe("flash messages", () => {
  it("round-trips a message through a short-lived HttpOnly, SameSite=Lax cookie", () => {
    const cookie = flashCookie(options, "success", "flash.signedIn");
    expect(cookie).toMatch(/; Path=\/; Max-Age=60; HttpOnly; SameSite=Lax$/);
    const message = readFlash(requestWith(cookie, "theme=dark; "), SECRET);
    expect(message).toMatchObject({ kind: "success", key: "flash.signedIn" });
    expect(message?.id).toMatch(/^[\w-]+$/);
  });

  it("adds Secure on https and keeps the headers it is given", () => {
    const given = new Headers({ "Set-Cookie": "inkwell.session_token=abc; Path=/" });
    const headers = flashHeaders({ secret: SECRET, secure: true }, "info", "flash.signedOut", given);
    const cookies = headers.getSetCookie();
    expect(cookies).toHaveLength(2);
    expect(cookies[1]).toMatch(/^inkwell\.flash=.*; Secure$/);
  });

  it("gives each message its own id", () => {
    const a = readFlash(requestWith(flashCookie(options, "info", "flash.signedOut")), SECRET);
    const b = readFlash(requestWith(flashCookie(options, "info", "flash.signedOut")), SECRET);
    expect(a?.id).not.toBe(b?.id);
  });

  it("shows nothing for a tampered cookie", () => {
    const cookie = flashCookie(options, "info", "flash.signedOut");
    const { payload, signature } = payloadOf(cookie);
    const forged = Buffer.from(JSON.stringify({ kind: "error", key: "flash.accountDeleted", id: "x" })).toString(
      "base64url",
    );
    expect(readFlash(requestWith(`${FLASH_COOKIE}=${forged}.${signature}`), SECRET)).toBeNull();
    expect(readFlash(requestWith(`${FLASH_COOKIE}=${payload}.${signature.slice(1)}`), SECRET)).toBeNull();
    expect(readFlash(requestWith(`${FLASH_COOKIE}=${payload}`), SECRET)).toBeNull();
    expect(readFlash(requestWith(`${FLASH_COOKIE}=garbage`), SECRET)).toBeNull();
    // Signed with another secret.
    expect(readFlash(requestWith(cookie), `${SECRET}-other`)).toBeNull();
  });

  it("shows nothing for a key or kind outside the allowlist, even when signed", async () => {
    const { createHmac } = await import("node:crypto");
    const signed = (message: object) => {
      const payload = Buffer.from(JSON.stringify(message)).toString("base64url");
      const signature = createHmac("sha256", `flash:${SECRET}`).update(payload).digest("base64url");
      return `${FLASH_COOKIE}=${payload}.${signature}`;
    };
    // The helper signs like the server does: a valid message passes, so the refusals below are the allowlist's.
    expect(readFlash(requestWith(signed({ kind: "info", key: "flash.signedOut", id: "a1" })), SECRET)).not.toBeNull();
    expect(readFlash(requestWith(signed({ kind: "info", key: "errors.server", id: "a1" })), SECRET)).toBeNull();
    expect(readFlash(requestWith(signed({ kind: "warning", key: "flash.signedOut", id: "a1" })), SECRET)).toBeNull();
    expect(readFlash(requestWith(signed({ kind: "info", key: "flash.signedOut", id: "<b>" })), SECRET)).toBeNull();
  });

  it("is absent without the cookie, and clearing it expires it at once", () => {
    const request = new Request("http://localhost/", { headers: { cookie: "theme=dark" } });
    expect(readFlash(request, SECRET)).toBeNull();
    expect(hasFlashCookie(request)).toBe(false);
    expect(hasFlashCookie(requestWith(`${FLASH_COOKIE}=garbage`))).toBe(true);
    expect(clearFlashCookie(false)).toBe(`${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  });

  it("only allows keys that both locales translate (in their own namespace)", () => {
    for (const locale of ["en", "zh"] as const) {
      const i18n = createI18n(locale);
      for (const key of FLASH_KEYS) {
        const [ns, path] = key.includes(":") ? (key.split(":") as [string, string]) : ["common", key];
        expect(i18n.getResource(locale, ns, path), `${locale} ${key}`).toEqual(expect.any(String));
      }
    }
  });
});
