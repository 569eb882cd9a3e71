import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.server.ts";

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
