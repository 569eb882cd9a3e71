import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { type HomeLayout, PostList, type PostListItem } from "./post-list.tsx";

function render(element: React.ReactNode): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <I18nextProvider i18n={createI18n("en")}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

const post = (id: string, cover: string | null): PostListItem => ({
  id,
  publishedAt: "2026-01-01T00:00:00.000Z",
  locale: "en",
  isFallback: false,
  title: `Title ${id}`,
  summary: `Summary ${id}`,
  readingMinutes: 2,
  category: null,
  tags: [],
  coverImageUrl: cover,
  coverAlt: cover ? `Cover ${id}` : "",
});

const items = [post("a", "/a.jpg"), post("b", null), post("c", "/c.jpg")];
const list = (layout: HomeLayout) =>
  render(<PostList items={items} locale="en" prefix="/en" emptyText="none" layout={layout} />);

describe("the home page's layouts", () => {
  it("lists every post in each layout, with a picture only where there is a cover", () => {
    for (const layout of ["list", "grid", "hero"] as const) {
      const html = list(layout);
      for (const id of ["a", "b", "c"]) expect(html, layout).toContain(`Title ${id}`);
      expect(html.match(/<img /g) ?? [], layout).toHaveLength(2);
      // No empty frame: as many picture boxes as pictures.
      expect(html.match(/aspect-(video|\[4\/3\])/g) ?? [], layout).toHaveLength(2);
    }
  });

  it("shows cards in a grid, or the newest post as a hero above the list", () => {
    expect(list("grid")).toContain('data-testid="post-grid"');
    expect(list("list")).not.toContain('data-testid="post-grid"');
    const hero = list("hero");
    expect(hero).toContain('data-testid="post-hero"');
    expect(hero.indexOf("Title a")).toBeLessThan(hero.indexOf("<ol"));
    expect(list("list")).not.toContain('data-testid="post-hero"');
  });
});
