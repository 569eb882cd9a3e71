import { describe, expect, it } from "vitest";
import { renderComment, renderCommentParts, renderMarkdown } from "./markdown.server.ts";

describe("renderMarkdown", () => {
  it("renders GitHub-flavoured Markdown", () => {
    const html = renderMarkdown("# Title\n\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n**bold** 中文");
    expect(html).toContain("<h1>Title</h1>");
    expect(html).toContain("<table>");
    expect(html).toContain("<strong>bold</strong> 中文");
  });

  it.each([
    ["<script>alert(1)</script>", /<script/i],
    ['<img src=x onerror="alert(1)">', /onerror/i],
    ["[x](javascript:alert(1))", /javascript:/i],
    ["[x](JaVaScRiPt:alert(1))", /javascript:/i],
    ["[x](&#106;avascript:alert(1))", /javascript:/i],
    ["![x](data:text/html;base64,PHNjcmlwdD4=)", /data:/i],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/i],
    ['<svg onload="alert(1)"></svg>', /onload|<svg/i],
    ['<a href="https://x.example" onclick="alert(1)">x</a>', /onclick/i],
  ])("removes the danger in %s", (input, danger) => {
    expect(renderMarkdown(input)).not.toMatch(danger);
  });

  it("marks external links noopener noreferrer and keeps relative ones", () => {
    const html = renderMarkdown("[out](https://example.com) [in](/about)");
    expect(html).toContain('<a href="https://example.com" rel="noopener noreferrer">out</a>');
    expect(html).toContain('<a href="/about">in</a>');
  });
});

describe("renderComment", () => {
  it("renders the small subset", () => {
    const html = renderComment(
      "*a* **b** `c` ~~d~~\n\n```js\nx < y\n```\n\n- one\n- two\n\n1. first\n\n> quoted\n\n[link](https://example.com)",
    );
    expect(html).toContain("<p><em>a</em> <strong>b</strong> <code>c</code> <del>d</del></p>");
    // Code blocks are not highlighted and carry no language class.
    expect(html).toContain("<pre><code>x &#x3C; y\n</code></pre>");
    expect(html).toContain("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(html).toContain("<ol>\n<li>first</li>\n</ol>");
    expect(html).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener noreferrer">link</a>');
  });

  it("shows headings, images, tables, rules and HTML as the text that was typed", () => {
    const html = renderComment(
      "# Big\n\nSetext\n===\n\n![pic](/media/x.webp)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\n\n<b>bold</b>",
    );
    expect(html).not.toMatch(/<(h\d|img|table|hr|b)\b/);
    expect(html).toContain("<p># Big</p>");
    expect(html).toContain("<p>Setext\n===</p>");
    expect(html).toContain("| a | b |");
    expect(html).toContain("&#x3C;b>bold&#x3C;/b>");
  });

  it("gives every link nofollow ugc, internal ones too", () => {
    const html = renderComment("[in](/posts/1) https://example.com and mail@example.com");
    expect(html).toContain('<a href="/posts/1" rel="nofollow ugc noopener noreferrer">in</a>');
    expect(html).toContain('<a href="https://example.com" rel="nofollow ugc noopener noreferrer">');
    expect(html).toContain('<a href="mailto:mail@example.com" rel="nofollow ugc noopener noreferrer">');
  });

  it.each([
    ["<script>alert(1)</script>", /<script/i],
    ['<img src=x onerror="alert(1)">', /<img/i],
    ["[x](javascript:alert(1))", /href/i],
    ["[x](data:text/html;base64,PHNjcmlwdD4=)", /href/i],
    ['<iframe src="https://evil.example"></iframe>', /<iframe/i],
  ])("removes the danger in %s", (input, danger) => {
    expect(renderComment(input)).not.toMatch(danger);
  });
});

describe("renderCommentParts counts links", () => {
  it.each([
    ["no links here", 0],
    ["[a](https://a.example) [b](/b)", 2],
    ["https://a.example www.b.example c@d.example <https://e.example>", 4],
    ["[ref][r]\n\n[r]: https://r.example", 1],
    ["![img](https://i.example/x.png)", 1],
    ["[bad](javascript:alert(1))", 0],
    ["`https://in.code.example`", 0],
  ])("%j has %i", (markdown, links) => {
    expect(renderCommentParts(markdown).links).toBe(links);
  });
});
