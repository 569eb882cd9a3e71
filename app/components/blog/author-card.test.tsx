import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { AuthorCard } from "./post-parts.tsx";

function render(element: React.ReactNode, locale: "en" | "zh" = "en"): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

describe("the author card at the end of a post", () => {
  it("ends with the author's card: name, bio and a link to their page, in the page's language", () => {
    const en = render(<AuthorCard name="Ada" handle="ada" bio={"Writes about\nengines."} locale="en" prefix="/en" />);
    expect(en).toContain("About the author");
    expect(en).toContain(">Ada<");
    expect(en).toContain("Writes about\nengines.");
    expect(en).toContain('href="/en/authors/ada"');
    expect(en).toContain("More from Ada");
    const zh = render(<AuthorCard name="Ada" handle="ada" bio={null} locale="zh" prefix="/zh" />, "zh");
    expect(zh).toContain("关于作者");
    expect(zh).toContain('href="/zh/authors/ada"');
  });

  it("has no card for a post without a known author", () => {
    expect(render(<AuthorCard name={null} handle={null} bio={null} locale="en" prefix="" />)).not.toContain(
      "author-card",
    );
  });
});
