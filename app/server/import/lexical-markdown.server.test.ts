import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderPost } from "../render/post-render.server.ts";
import { LEXICAL_MAX_DEPTH, lexicalToMarkdown } from "./lexical-markdown.server.ts";

// Ghost's Lexical → Markdown, on the fixture's posts (tests/fixtures/ghost/authors-lexical.json)
// and on hostile documents: script links, HTML cards with script, nesting far past the limits.

const FIXTURE = path.resolve(import.meta.dirname, "../../../tests/fixtures/ghost/authors-lexical.json");
const posts = (
  JSON.parse(readFileSync(FIXTURE, "utf8")) as { db: [{ data: { posts: { id: string; lexical: string }[] } }] }
).db[0].data.posts;
const lexicalOf = (id: string): string => posts.find((p) => p.id === id)?.lexical ?? "";

const text = (value: string, format = 0) => ({ type: "text", text: value, format });
const para = (...children: unknown[]) => ({ type: "paragraph", children });
const doc = (...children: unknown[]) => ({ root: { type: "root", children } });

describe("lexicalToMarkdown", () => {
  it("converts every node and card type the converter knows", () => {
    const out = lexicalToMarkdown(lexicalOf("77b001"));
    expect(out).not.toBeNull();
    const md = out?.markdown ?? "";
    expect(md).toContain("## Field notes");
    expect(md).toContain("Plain, **bold**, *italic*, ~~struck~~ and `a_code(1)` with \\*stars\\* kept.");
    expect(md).toContain("[a river](https://example.org/river) then a break\\\nnext line");
    expect(md).toContain("- first\n- second\n  - nested");
    expect(md).toContain("3. three\n4. four");
    expect(md).toContain("- [x] done\n- [ ] todo");
    expect(md).toContain("> Quoted words");
    expect(md).toContain("> An aside");
    expect(md).toContain("\n---\n");
    expect(md).toContain(["```javascript", "const a = 1;", "console.log(`$" + "{a}`);", "```"].join("\n"));
    expect(md).toContain("![A picture](__GHOST_URL__/content/images/size/w600/2024/03/pic.png)\n\n*Taken at dawn*");
    expect(md).toContain("Some **markdown** card text.");
    expect(md).toContain("Inside an HTML card");
    expect(md).toContain("[An article](https://example.net/article)");
    expect(md).toContain("[A video](https://video.example/watch?v=1)");
    expect(md).toContain("![one](https://cdn.example/one.jpg)\n![two](https://cdn.example/two.jpg)");
    expect(md).toContain("> 💡 Mind the gap");
    expect(md).toContain("[Subscribe](https://example.org/subscribe)");
    expect(md).toContain("Text of an unknown node");
    expect(out?.unknown).toEqual(["sparkle-widget"]);
    expect(out?.dropped).toEqual(["signup"]);
    // The HTML card's script and script link are gone before rendering already.
    expect(md).not.toContain("alert");
  });

  it("neutralises hostile links, HTML and Markdown cards, and the render path cleans the rest", async () => {
    const out = lexicalToMarkdown(lexicalOf("77b002"));
    const md = out?.markdown ?? "";
    // The Lexical links lose their target here; what the HTML and Markdown cards hold is cleaned when rendered.
    expect(md).toContain("click me\n\ntabbed\n");
    expect(md.split("\n\n").slice(0, 2).join(" ")).not.toMatch(/java/i);
    expect(md).toContain("\\<script\\>alert(3)\\</script\\> as text");
    const html = (await renderPost(md, "en", { media: async () => new Map() })).html;
    expect(html).not.toMatch(/<script|onerror|javascript:|<iframe/i);
    expect(html).toContain("&#x3C;script>alert(3)");
  });

  it("reads nesting far past the limits without a crash, as text", () => {
    // Written as text: JSON.stringify itself recurses.
    const open = '{"type":"link","url":"https://example.org/","children":['.repeat(5000);
    const deep = `{"root":{"type":"root","children":[{"type":"paragraph","children":[${open}{"type":"text","text":"deep text"}${"]}".repeat(5000)}]}]}}`;
    const deepInline = lexicalToMarkdown(deep);
    expect(deepInline?.flattened).toBe(true);
    expect(deepInline?.markdown).toContain("deep text");

    let list: Record<string, unknown> = {
      type: "list",
      listType: "bullet",
      children: [{ type: "listitem", children: [text("leaf")] }],
    };
    for (let i = 0; i < 3000; i++)
      list = { type: "list", listType: "bullet", children: [{ type: "listitem", children: [text(`l${i}`), list] }] };
    const deepList = lexicalToMarkdown(doc(list));
    expect(deepList?.flattened).toBe(true);
    expect(deepList?.markdown).toContain("l2999");
    // No line opens more than the Markdown nesting the render path accepts.
    const indents = (deepList?.markdown ?? "").split("\n").map((l) => /^ */.exec(l)?.[0].length ?? 0);
    expect(Math.max(...indents)).toBeLessThan(2 * 16);

    let quote: Record<string, unknown> = { type: "unknown-box", children: [para(text("inside"))] };
    for (let i = 0; i < LEXICAL_MAX_DEPTH * 3; i++) quote = { type: "unknown-box", children: [quote] };
    expect(lexicalToMarkdown(doc(quote))?.markdown).toContain("inside");
  });

  it("gives null for what is not a Lexical document", () => {
    expect(lexicalToMarkdown("{not json")).toBeNull();
    expect(lexicalToMarkdown("[1,2]")).toBeNull();
    expect(lexicalToMarkdown(42)).toBeNull();
    expect(lexicalToMarkdown(doc())?.markdown).toBe("");
  });

  it("keeps formatting across neighbouring runs and escapes Markdown syntax in text", () => {
    const out = lexicalToMarkdown(doc(para(text("a", 1), text("b", 1), text(" # not a heading"))));
    expect(out?.markdown).toBe("**ab** # not a heading\n");
    expect(lexicalToMarkdown(doc(para(text("# title"))))?.markdown).toBe("\\# title\n");
  });
});
