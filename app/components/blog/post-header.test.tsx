import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../lib/i18n/i18n.ts";
import type { PostDetail } from "../../server/posts/post-detail.server.ts";
import { PostHeader } from "./post-parts.tsx";

function render(element: React.ReactNode, locale: "en" | "zh" = "en"): string {
  const router = createMemoryRouter([{ path: "/", element }]);
  return renderToString(
    <I18nextProvider i18n={createI18n(locale)}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

const post = {
  id: "p1",
  status: "published",
  deletedAt: null,
  publishedAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  isFallback: false,
  authorName: "Ada",
  authorHandle: "ada",
  viewCount: 42,
  category: null,
  locales: ["en"],
  tags: [],
  translation: {
    locale: "en",
    title: "Hello",
    summary: "",
    bodyHtml: "",
    toc: [],
    readingMinutes: 1,
    seoTitle: null,
    seoDescription: null,
  },
} as unknown as PostDetail;

describe("a post's header", () => {
  it("shows readers the view count only when the owner chose to", () => {
    expect(render(<PostHeader post={post} locale="en" prefix="/en" />)).not.toContain("view-count");
    expect(render(<PostHeader post={post} locale="en" prefix="/en" showViews />)).toContain('data-testid="view-count"');
  });
});
