import { describe, expect, it } from "vitest";
import { localeFromCookie } from "./locale.ts";
import { LOCALE_MEMORY_SCRIPT } from "./remember-locale.ts";

/** Runs the script against a page address and a cookie jar; returns what it wrote, if anything. */
function run(url: string, cookie: string): string | null {
  let written: string | null = null;
  const document = {
    get cookie() {
      return cookie;
    },
    set cookie(value: string) {
      written = value;
    },
  };
  new Function("location", "document", LOCALE_MEMORY_SCRIPT)(new URL(url), document);
  return written;
}

describe("the script that remembers a prefixed page's language", () => {
  it("sets the locale cookie to the page's language when the cookie says otherwise", () => {
    for (const cookie of ["", "locale=en", "a=1; locale=en; b=2", "locale=junk"]) {
      const set = run("http://blog.test/zh/about", cookie);
      expect(set, cookie).toBe("locale=zh; Max-Age=31536000; Path=/; SameSite=Lax");
      expect(localeFromCookie(set)).toBe("zh");
    }
    expect(run("https://blog.test/en", "locale=zh")).toBe("locale=en; Max-Age=31536000; Path=/; SameSite=Lax; Secure");
    expect(run("http://blog.test/en/posts/detail/x?utm_source=feed", "other=1")).toMatch(/^locale=en;/);
  });

  it("holds no character HTML would escape, so the page carries it byte for byte", () => {
    expect(LOCALE_MEMORY_SCRIPT).not.toMatch(/[&<>]/);
  });

  it("writes nothing when the cookie already matches, or the page has no language prefix", () => {
    expect(run("http://blog.test/zh/posts", "locale=zh")).toBeNull();
    expect(run("http://blog.test/en", "x=1; locale=en")).toBeNull();
    for (const path of ["/", "/about", "/admin", "/english", "/zhong", "/api/x"]) {
      expect(run(`http://blog.test${path}`, "locale=en"), path).toBeNull();
      expect(run(`http://blog.test${path}`, ""), path).toBeNull();
    }
  });
});
