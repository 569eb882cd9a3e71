import { describe, expect, it } from "vitest";
import { DOMAIN_PATTERN, domainBlockSchema } from "../../lib/schemas/fediverse.ts";
import { INBOX_RATE_KEYS } from "../http/federation.server.ts";
import { sanitizeCommentHtml } from "../render/markdown.server.ts";

describe("a remote note's HTML through the comment sanitiser", () => {
  it("keeps the comment subset and drops scripts, handlers, images, styles and unsafe links", () => {
    const html = sanitizeCommentHtml(
      '<p onclick="x()"><span class="h-card"><a href="https://s.example/@a" class="u-url mention">@<span>a</span></a></span> ' +
        '<strong>hi</strong><script>alert(1)</script><img src="x" onerror="alert(1)"><style>p{}</style>' +
        '<a href="javascript:alert(1)">bad</a><iframe src="https://e.example"></iframe></p><h1>Title</h1>',
    );
    expect(html).toBe(
      '<p><a href="https://s.example/@a" rel="nofollow ugc noopener noreferrer">@a</a> <strong>hi</strong><a>bad</a></p>Title',
    );
  });
});

describe("the inbox's rate-limit keys", () => {
  it("count unverified posts by address (an IPv6 client by its /64) and verified ones by server", () => {
    expect(INBOX_RATE_KEYS.address("203.0.113.9")).toBe("fedinbox:addr:203.0.113.9");
    expect(INBOX_RATE_KEYS.address("2001:db8:1:2::a")).toBe(INBOX_RATE_KEYS.address("2001:db8:1:2::b"));
    expect(INBOX_RATE_KEYS.server("Mastodon.Example:8443")).toBe("fedinbox:server:mastodon.example:8443");
  });
});

describe("the domain block form", () => {
  it("takes host names and addresses, lower-cased, and refuses addresses with a scheme, path or spaces", () => {
    expect(domainBlockSchema.safeParse({ domain: " Spam.Example " }).data).toEqual({ domain: "spam.example" });
    for (const ok of ["a.b.example", "127.0.0.1", "x-y.example"]) expect(DOMAIN_PATTERN.test(ok)).toBe(true);
    for (const bad of ["https://spam.example", "spam.example/path", "spam example", "-x.example", "x_y.example", ""]) {
      expect(domainBlockSchema.safeParse({ domain: bad }).success, bad).toBe(false);
    }
  });
});
