import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import type { ResolvedMenuItem } from "../../lib/menus.ts";
import { SiteHeader } from "./site-header.tsx";

function render(menu: ResolvedMenuItem[] | undefined, locale: Locale = "en", path = "/"): string {
  const router = createMemoryRouter(
    [
      {
        path: "*",
        element: <SiteHeader siteName="Inkwell" user={null} locale={locale} showLanguageSwitch={false} menu={menu} />,
      },
    ],
    { initialEntries: [path] },
  );
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

/** The main menu's markup: from its list to the bar's right-hand controls. */
const mainMenu = (html: string) => {
  const start = html.indexOf('data-testid="main-menu"');
  return html.slice(start, html.indexOf("lg:ml-auto", start));
};
const item = (label: string, href = `/${label.toLowerCase().replace(/\s+/g, "-")}`): ResolvedMenuItem => ({
  href,
  label,
  external: false,
});

describe("the header's main menu", () => {
  it("is today's Home and All blogs without a menu, in each language", () => {
    const en = mainMenu(render(undefined));
    expect(en).toMatch(/<a [^>]*href="\/"[^>]*>Home<\/a>/);
    expect(en).toMatch(/<a [^>]*href="\/posts"[^>]*>All blogs<\/a>/);
    expect(en).not.toContain("data-more-menu");
    expect(mainMenu(render(undefined, "zh", "/zh"))).toMatch(/<a [^>]*href="\/zh\/posts"[^>]*>全部博客<\/a>/);
  });

  it("puts what does not fit one row under More from 1024 px, and keeps every item for the phone menu", () => {
    const labels = [
      "Home",
      "All blogs",
      "Photography",
      "Travel notes",
      "Recipes",
      "Reading list",
      "About me",
      "Contact",
    ];
    const html = mainMenu(render(labels.map((l, i) => item(l, i === 0 ? "/" : undefined))));
    expect(html).toContain("data-more-menu");
    expect(html).toContain(">More<");
    // Each item is in the phone menu once; the ones past the row are hidden from 1024 px there
    // and shown in the disclosure instead.
    for (const label of labels) expect(html).toContain(`>${label}</a>`);
    const hiddenOnWide = [...html.matchAll(/<li class="lg:hidden">.*?>([^<]+)<\/a><\/li>/g)].map((m) => m[1]);
    const inMore = [
      ...(/<details[^>]*data-more-menu.*?<\/details>/s.exec(html)?.[0] ?? "").matchAll(/>([^<>]+)<\/a>/g),
    ].map((m) => m[1]);
    expect(hiddenOnWide.length).toBeGreaterThan(0);
    expect(inMore).toEqual(hiddenOnWide);
    expect(labels.slice(labels.length - inMore.length)).toEqual(inMore);
  });

  it("links other sites as plain links", () => {
    const html = mainMenu(render([{ href: "https://shop.example/", label: "Shop", external: true }]));
    expect(html).toMatch(/<a href="https:\/\/shop.example\/" rel="noopener noreferrer"[^>]*>Shop<\/a>/);
  });
});
