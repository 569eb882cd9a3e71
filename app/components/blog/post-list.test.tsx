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
  const attribute = (img: string, name: string) => new RegExp(`${name}="(\\w+)"`, "i").exec(img)?.[1];
  const images = (html: string) => [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);

  it("loads the first three covers at once and the rest lazily, each in a sized 4:3 box", () => {
    const html = render([1, 2, 3, 4, 5].map(item));
    const imgs = images(html);
    expect(imgs).toHaveLength(5);
    expect(imgs.map((img) => attribute(img, "loading"))).toEqual(["eager", "eager", "eager", "lazy", "lazy"]);
    for (const img of imgs) {
      expect(img).toContain('width="160"');
      expect(img).toContain('height="120"');
    }
    // Not stretched to the card's height: the box keeps its aspect ratio.
    const boxes = [...html.matchAll(/<div class="([^"]*aspect-\[4\/3\][^"]*)"/g)].map((m) => m[1]);
    expect(boxes).toHaveLength(5);
    for (const box of boxes) expect(box?.split(" ")).toContain("self-start");
  });

  it("fetches the first cover of the first screen with high priority, and only that one", () => {
    const withFirstCovers = images(render([1, 2, 3].map(item)));
    expect(withFirstCovers.map((img) => attribute(img, "fetchpriority") ?? null)).toEqual(["high", null, null]);

    // The first two cards have no cover: the third card's is the one.
    const bare = (n: number): PostListItem => ({ ...item(n), coverImageUrl: null });
    const later = images(render([bare(1), bare(2), item(3), item(4)]));
    expect(later.map((img) => attribute(img, "fetchpriority") ?? null)).toEqual(["high", null]);

    // No cover before the fourth card: nothing is hinted.
    const none = images(render([bare(1), bare(2), bare(3), item(4)]));
    expect(none.map((img) => attribute(img, "fetchpriority") ?? null)).toEqual([null]);
  });
});
