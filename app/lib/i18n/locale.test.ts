import { describe, expect, it } from "vitest";
import {
  HTML_LANG,
  localeCookieHeader,
  localeFromAcceptLanguage,
  localeFromCookie,
  localeFromHost,
  localeFromPath,
  localeFromRequest,
  resolveLocale,
} from "./locale.ts";

describe("locale decision order", () => {
  it("takes the URL prefix over everything", () => {
    expect(resolveLocale({ pathname: "/en/posts", cookie: "locale=zh", host: "zh.example.com" })).toBe("en");
    expect(resolveLocale({ pathname: "/zh", cookie: "locale=en", host: "en.example.com" })).toBe("zh");
  });

  it("takes the cookie over the host and Accept-Language", () => {
    expect(resolveLocale({ pathname: "/", cookie: "a=1; locale=en", host: "zh.example.com" })).toBe("en");
  });

  it("takes the host over Accept-Language", () => {
    expect(resolveLocale({ pathname: "/", host: "en.example.com", acceptLanguage: "zh-CN" })).toBe("en");
  });

  it("uses Accept-Language when the host says nothing", () => {
    expect(resolveLocale({ pathname: "/", host: "blog.example.com", acceptLanguage: "en-GB,en;q=0.9" })).toBe("en");
  });

  it("falls back to Chinese", () => {
    expect(resolveLocale({ pathname: "/", host: "blog.example.com" })).toBe("zh");
  });

  it("reads a Request", () => {
    const request = new Request("http://blog.example.com/en/posts", { headers: { cookie: "locale=zh" } });
    expect(localeFromRequest(request)).toBe("en");
  });
});

describe("localeFromPath", () => {
  it.each([
    ["/en", "en"],
    ["/en/", "en"],
    ["/zh/posts/page/2", "zh"],
    ["/zh.data", "zh"],
    ["/en.data", "en"],
    ["/zh.database", null],
    ["/english", null],
    ["/posts/en", null],
    ["/", null],
  ])("%s → %s", (path, expected) => expect(localeFromPath(path)).toBe(expected));
});

describe("localeFromCookie", () => {
  it.each([
    ["locale=en", "en"],
    ["x=1; locale=zh; y=2", "zh"],
    ["locale=fr", null],
    ["locale=<script>alert(1)</script>", null],
    [`locale=${"x".repeat(10_000)}`, null],
    ["mylocale=en", null],
    ["", null],
  ])("%s → %s", (cookie, expected) => expect(localeFromCookie(cookie)).toBe(expected));
});

describe("localeFromHost", () => {
  it.each([
    ["en.example.com", "en"],
    ["EN.example.com:8080", "en"],
    ["zh.example.com", "zh"],
    ["cn.example.com", "zh"],
    ["localhost:3000", "en"],
    ["127.0.0.1:3000", "en"],
    ["8.8.8.8", "en"],
    ["[::1]:3000", "en"],
    ["192.168.1.20:3000", "zh"],
    ["10.0.0.5", "zh"],
    ["172.20.1.1", "zh"],
    ["blog.local", "zh"],
    ["blog.example.com", null],
    ["172.32.0.1", "en"],
  ])("%s → %s", (host, expected) => expect(localeFromHost(host)).toBe(expected));
});

describe("localeFromAcceptLanguage", () => {
  it.each([
    ["zh-CN,zh;q=0.9,en;q=0.8", "zh"],
    ["en-US,en;q=0.9", "en"],
    ["fr-FR,en;q=0.5,zh;q=0.7", "zh"],
    ["de-DE", null],
    ["en;q=0", null],
    ["<script>", null],
    ["x".repeat(5000), null],
  ])("%s → %s", (header, expected) => expect(localeFromAcceptLanguage(header)).toBe(expected));
});

it("maps locales to exactly two html lang values", () => {
  expect(HTML_LANG).toEqual({ en: "en-US", zh: "zh-CN" });
});

describe("localeCookieHeader", () => {
  it("writes the same cookie as the language buttons", () => {
    expect(localeCookieHeader("zh", false)).toBe("locale=zh; Max-Age=31536000; Path=/; SameSite=Lax");
    expect(localeCookieHeader("en", true)).toBe("locale=en; Max-Age=31536000; Path=/; SameSite=Lax; Secure");
  });
});
