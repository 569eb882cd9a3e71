import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { Locale } from "../../lib/i18n/locale.ts";
import { type FooterSite, SiteFooter } from "./site-footer.tsx";

const site = (extra: Partial<FooterSite>): FooterSite => ({
  name: "Inkwell",
  about: "",
  socialLinks: [],
  copyright: "© 2026 Inkwell",
  popularCategories: [],
  ...extra,
});

function render(footer: FooterSite, locale: Locale = "en"): string {
  const router = createMemoryRouter([{ path: "/", element: <SiteFooter site={footer} locale={locale} /> }]);
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

/** The footer's "Quick links" navigation. */
const quickLinks = (html: string) => /<nav aria-labelledby="footer-links".*?<\/nav>/s.exec(html)?.[0] ?? "";

describe("SiteFooter friend links entry", () => {
  it("offers the friend links page in both languages when at least one link is enabled", () => {
    expect(quickLinks(render(site({ hasFriendLinks: true })))).toMatch(/<a [^>]*href="\/links"[^>]*>Friend links<\/a>/);
    expect(quickLinks(render(site({ hasFriendLinks: true }), "zh"))).toMatch(
      /<a [^>]*href="\/links"[^>]*>友情链接<\/a>/,
    );
  });

  it("says nothing of friend links when there are none", () => {
    const html = render(site({ hasFriendLinks: false }));
    expect(quickLinks(html)).toContain("Privacy policy");
    expect(html).not.toContain('href="/links"');
  });
});
