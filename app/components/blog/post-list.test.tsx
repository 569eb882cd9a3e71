import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import { PostList, type PostListItem } from "./post-list.tsx";

const item = (n: number): PostListItem => ({
  id: `post${n}`,
  publishedAt: "2026-11-01T00:00:00.000Z",
  locale: "en",
  isFallback: false,
  title: `Post ${n}`,
  summary: "",
  readingMinutes: 1,
  category: null,
  tags: [],
  coverImageUrl: `/cover-${n}.jpg`,
  coverAlt: `Cover ${n}`,
});

function render(items: PostListItem[]): string {
  const router = createMemoryRouter([
    { path: "/", element: <PostList items={items} locale="en" prefix="" emptyText="None" /> },
  ]);
  return renderToString(
    <I18nextProvider i18n={createI18n("en")}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

describe("PostList covers", () => {
  it("loads the first two covers at once and the rest lazily, each in a sized box", () => {
    const html = render([1, 2, 3, 4].map(item));
    const images = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(images).toHaveLength(4);
    expect(images.map((img) => /loading="(\w+)"/.exec(img)?.[1])).toEqual(["eager", "eager", "lazy", "lazy"]);
    for (const img of images) {
      expect(img).toContain('width="160"');
      expect(img).toContain('height="120"');
    }
  });
});
