import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FriendLinkCards } from "./friend-link-cards.tsx";

describe("FriendLinkCards", () => {
  it("shows a logo only for a link that has one, and no placeholder box for the others", () => {
    const html = renderToString(
      <FriendLinkCards
        links={[
          { id: "a", name: "With logo", url: "https://a.example/", logoUrl: "/logo-a.png", description: "" },
          { id: "b", name: "No logo", url: "https://b.example/", logoUrl: null, description: "Plain" },
        ]}
      />,
    );
    const cards = [...html.matchAll(/<li[^>]*>.*?<\/li>/gs)].map((m) => m[0]);
    expect(cards).toHaveLength(2);
    expect(cards[0]).toMatch(/<img [^>]*src="\/logo-a.png"/);
    expect(cards[1]).not.toContain("<img");
    expect(cards[1]).not.toContain('aria-hidden="true"');
    expect(cards[1]).toMatch(/^<li[^>]*><div class="min-w-0"><a [^>]*>No logo<\/a>/);
  });
});
