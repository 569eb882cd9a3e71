import { describe, expect, it } from "vitest";
import { validate } from "./forms.ts";
import { checkTarget, locationFor, normalizeFrom, normalizePath, redirectSchema } from "./redirects.ts";

describe("normalizeFrom", () => {
  it("adds the leading slash, drops a trailing one and the host, folds case and repeated slashes", () => {
    expect(normalizeFrom("old-page")).toEqual({ ok: true, path: "/old-page", query: "" });
    expect(normalizeFrom("  /2019/05/My-Post/  ")).toEqual({ ok: true, path: "/2019/05/my-post", query: "" });
    expect(normalizeFrom("https://old.example.com/Tag/News/")).toEqual({ ok: true, path: "/tag/news", query: "" });
    expect(normalizeFrom("/a//b///")).toEqual({ ok: true, path: "/a/b", query: "" });
    expect(normalizeFrom("/old#section")).toEqual({ ok: true, path: "/old", query: "" });
  });

  it("keeps a query exactly as written, and allows / with a query", () => {
    expect(normalizeFrom("/?p=123")).toEqual({ ok: true, path: "/", query: "p=123" });
    expect(normalizeFrom("/index.php?P=5&b=2")).toEqual({ ok: true, path: "/index.php", query: "P=5&b=2" });
  });

  it("decodes percent-escapes so a Chinese slug written either way is one path", () => {
    const encoded = normalizeFrom("/2020/%E4%BD%A0%E5%A5%BD/");
    expect(encoded).toEqual({ ok: true, path: "/2020/你好", query: "" });
    expect(normalizeFrom("/2020/你好")).toEqual(encoded);
    expect(normalizePath("/bad%zz")).toBe("/bad%zz");
  });

  it("refuses what is no path: dot segments, encoded slashes, spaces, other schemes, //host", () => {
    for (const bad of [
      "",
      "  ",
      "/a/../admin",
      "/a/./b",
      "/a%2Fb",
      "/a b",
      "//evil.example/x",
      "javascript:alert(1)",
      "/a\\b",
    ]) {
      expect(normalizeFrom(bad), bad).toEqual({ ok: false, error: "fromInvalid" });
    }
    expect(normalizeFrom(`/${"a".repeat(2001)}`)).toEqual({ ok: false, error: "fromInvalid" });
  });
});

describe("checkTarget (no open redirects)", () => {
  it("takes site paths with a query and fragment", () => {
    expect(checkTarget("/posts/detail/abc?x=1#c", false)).toEqual({ ok: true, target: "/posts/detail/abc?x=1#c" });
  });

  it("refuses anything that leaves the site unless the row allows an https:// URL", () => {
    for (const bad of ["//evil.example", "//evil.example/path", "/\\evil.example", "https://evil.example/"]) {
      expect(checkTarget(bad, false).ok, bad).toBe(false);
    }
    expect(checkTarget("https://evil.example/", false)).toEqual({ ok: false, error: "toExternal" });
    for (const bad of ["javascript:alert(1)", "data:text/html,x", "evil.example", "/a b", "/\tx"]) {
      expect(checkTarget(bad, true).ok, bad).toBe(false);
    }
    expect(checkTarget("http://elsewhere.example/", true)).toEqual({ ok: false, error: "toInvalid" });
    expect(checkTarget("https://user:pw@elsewhere.example/", true)).toEqual({ ok: false, error: "toInvalid" });
    expect(checkTarget("https://elsewhere.example/new", true)).toEqual({
      ok: true,
      target: "https://elsewhere.example/new",
    });
  });
});

describe("locationFor", () => {
  it("carries the request's query when the from-path has none and the target has none", () => {
    expect(locationFor({ fromQuery: "", to: "/new" }, "utm=x")).toBe("/new?utm=x");
    expect(locationFor({ fromQuery: "", to: "/new#top" }, "utm=x")).toBe("/new?utm=x#top");
    expect(locationFor({ fromQuery: "", to: "/new?lang=en" }, "utm=x")).toBe("/new?lang=en");
    expect(locationFor({ fromQuery: "p=1", to: "/new" }, "p=1")).toBe("/new");
    expect(locationFor({ fromQuery: "", to: "/new" }, "")).toBe("/new");
  });
});

describe("redirectSchema", () => {
  it("answers each field's problem, and a redirect to itself", () => {
    const empty = validate(redirectSchema, { from: "", to: "" });
    expect(empty).toEqual({
      ok: false,
      errors: { from: "adminLinks:redirects.errors.fromRequired", to: "adminLinks:redirects.errors.toRequired" },
    });
    const self = validate(redirectSchema, { from: "/Old/", to: "/old?x=1" });
    expect(self).toEqual({ ok: false, errors: { to: "adminLinks:redirects.errors.self" } });
    const evil = validate(redirectSchema, { from: "/old", to: "//evil.example" });
    expect(evil).toEqual({ ok: false, errors: { to: "adminLinks:redirects.errors.toExternal" } });
    const ok = validate(redirectSchema, { from: "/old", to: "/new", status: "302" });
    expect(ok.ok && ok.data.status).toBe("302");
    expect(validate(redirectSchema, { from: "/old", to: "/new", status: "307" }).ok).toBe(false);
  });
});
