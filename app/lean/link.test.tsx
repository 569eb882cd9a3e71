import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter, Link as RouterLink } from "react-router";
import { describe, expect, it } from "vitest";
import { localizePath } from "../lib/i18n/localized-path.ts";
import { LeanDocumentProvider } from "./lean-context.tsx";
import { isPlainPath, Link, NavLink } from "./link.tsx";

/** The markup of one link at /zh/posts/detail/abc, from React Router's Link or ours in a lean document. */
function markup(element: React.ReactElement, lean: boolean): string {
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={["/zh/posts/detail/abc"]}>
      <LeanDocumentProvider value={lean}>{element}</LeanDocumentProvider>
    </MemoryRouter>,
  );
}

const PATHS = [
  "/",
  "/posts/detail/abc",
  "/zh/tags/css",
  "/authors/demo-author/",
  "/search?q=a%20b&page=2",
  "/search?q=what?",
  "/posts/detail/abc#comments",
  "/posts/detail/abc?x=1#c?d",
  "/a/.../b",
  "/a/.hidden",
  "/标签/中文",
  // Not plain: the router resolves or trims them, so they keep its link.
  "/a/../b",
  "/a/./b",
  "/a//b",
  "//example.com/x",
  "/a\\b",
  "/search?",
  "/posts#",
  "https://example.com/",
  "relative/path",
  "../up",
];

describe("the lean document's Link", () => {
  it("writes exactly the markup of React Router's Link, in the page's language", () => {
    for (const to of PATHS) {
      const props = { to, className: "underline", rel: "next", lang: "en", children: "x" } as const;
      // The page is under /zh: its links to the site's pages are too.
      const routerProps = { ...props, to: localizePath(to, "/zh") };
      const expected = markup(<RouterLink {...routerProps} />, false);
      expect(markup(<Link {...props} />, true), to).toBe(expected);
      expect(markup(<Link {...props} />, false), to).toBe(expected);
      expect(markup(<Link {...props} target="_blank" discover="none" reloadDocument />, true), to).toBe(
        markup(<RouterLink {...routerProps} target="_blank" discover="none" reloadDocument />, false),
      );
    }
  });

  it("keeps the page's language in links and menu links, in the app and in a lean document", () => {
    for (const lean of [true, false]) {
      expect(markup(<Link to="/about">a</Link>, lean)).toContain('href="/zh/about"');
      expect(markup(<Link to="/">a</Link>, lean)).toContain('href="/zh"');
      expect(markup(<Link to="/admin">a</Link>, lean)).toContain('href="/admin"');
      expect(markup(<Link to="/en/posts/detail/abc">a</Link>, lean)).toContain('href="/en/posts/detail/abc"');
      expect(markup(<NavLink to="/posts/page/2">a</NavLink>, lean)).toContain('href="/zh/posts/page/2"');
    }
    // The page it is on is marked as such.
    expect(markup(<NavLink to="/posts/detail/abc">a</NavLink>, true)).toContain('aria-current="page"');
  });

  it("writes a plain anchor only for paths the router leaves as they are, in a lean document", () => {
    expect(PATHS.filter(isPlainPath)).toEqual(PATHS.slice(0, 11));
    // The plain anchor carries no router-only props (state, replace…) into the markup.
    const html = markup(
      <Link to="/admin" state={{ from: 1 }} replace preventScrollReset viewTransition>
        a
      </Link>,
      true,
    );
    expect(html).toBe('<a href="/admin" data-discover="true">a</a>');
  });
});
