import type { Element, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { describe, expect, it } from "vitest";
import { SHOWCASE_MARKDOWN } from "../../../scripts/demo/showcase.ts";
import { renderMarkdown, visitElements } from "./markdown.server.ts";
import { headingSlug, readingMinutes } from "./post-outline.server.ts";
import { renderPost } from "./post-render.server.ts";

function elements(html: string, tagName?: string): Element[] {
  const found: Element[] = [];
  visitElements(fromHtml(html, { fragment: true }) as Root, (element) => {
    if (!tagName || element.tagName === tagName) found.push(element);
  });
  return found;
}

/** The text a browser shows for `html`, apart from the code blocks' copy buttons. */
function textContent(html: string): string {
  const text = (node: Root | Element): string =>
    node.children
      .map((c) => (c.type === "text" ? c.value : c.type === "element" && c.tagName !== "button" ? text(c) : ""))
      .join("");
  return text(fromHtml(html, { fragment: true }));
}

describe("readingMinutes", () => {
  it("counts English words and Chinese characters at their own speeds", () => {
    expect(readingMinutes("word ".repeat(460))).toBe(2);
    expect(readingMinutes("字".repeat(800))).toBe(2);
    expect(readingMinutes(`${"word ".repeat(230)}${"字".repeat(400)}`)).toBe(2);
  });

  it("is at least one minute", () => {
    expect(readingMinutes("")).toBe(1);
  });
});

describe("headingSlug", () => {
  it.each([
    ["Hello, World!", "h-hello-world"],
    ["你好，世界", "h-你好世界"],
    ["安装 Node.js 24", "h-安装-nodejs-24"],
    ["  Spaces   and_underscores-ok ", "h-spaces-and_underscores-ok"],
    ["!!!", "h-section"],
    ["🎉", "h-section"],
  ])("%j → %j", (text, slug) => {
    expect(headingSlug(text)).toBe(slug);
  });
});

describe("renderPost", () => {
  it("renders sanitized HTML", async () => {
    const out = await renderPost("# Hi\n\n<script>x</script>");
    expect(out.html).toContain("Hi");
    expect(out.html).not.toContain("<script");
  });

  it("builds the table of contents from h2 and h3 only, in order", async () => {
    const { toc } = await renderPost(
      "# Title\n\n## First *part*\n\ntext\n\n### Detail `code`\n\n#### Too deep\n\n## Second [link](/x)\n",
    );
    expect(toc).toEqual([
      { depth: 2, id: "h-first-part", text: "First part" },
      { depth: 3, id: "h-detail-code", text: "Detail code" },
      { depth: 2, id: "h-second-link", text: "Second link" },
    ]);
  });

  it("gives every heading an id, and the ids match the table of contents", async () => {
    const { html, toc } = await renderPost("# Top\n\n## A\n\n### B\n\n#### C\n");
    const ids = elements(html)
      .filter((e) => /^h[1-6]$/.test(e.tagName))
      .map((e) => e.properties.id);
    expect(ids).toEqual(["h-top", "h-a", "h-b", "h-c"]);
    expect(toc.map((t) => t.id)).toEqual(["h-a", "h-b"]);
  });

  it("keeps Chinese headings readable in their ids", async () => {
    const { html, toc } = await renderPost("## 快速开始\n\n## 测试：中文 与 English\n");
    expect(toc).toEqual([
      { depth: 2, id: "h-快速开始", text: "快速开始" },
      { depth: 2, id: "h-测试中文-与-english", text: "测试：中文 与 English" },
    ]);
    expect(elements(html, "h2").map((h) => h.properties.id)).toEqual(["h-快速开始", "h-测试中文-与-english"]);
  });

  it("makes repeated headings unique within the post", async () => {
    const { html, toc } = await renderPost("## Setup\n\n## Setup\n\n### Setup\n\n## Setup 1\n\n## ???\n\n## ！！\n");
    const ids = toc.map((t) => t.id);
    expect(ids).toEqual(["h-setup", "h-setup-1", "h-setup-2", "h-setup-1-1", "h-section", "h-section-1"]);
    const inHtml = elements(html).map((e) => e.properties.id);
    expect(new Set(inHtml).size).toBe(inHtml.length);
  });

  it("prefixes heading ids so a heading cannot take an id of the page", async () => {
    const { html } = await renderPost("## main\n\n## root\n");
    expect(elements(html, "h2").map((h) => h.properties.id)).toEqual(["h-main", "h-root"]);
  });

  it("highlights code with both themes as CSS variables", async () => {
    const { html } = await renderPost("```ts\nconst answer: number = 42;\n```\n");
    const [pre] = elements(html, "pre");
    expect(pre?.properties.className).toContain("shiki");
    expect(String(pre?.properties.style)).toMatch(/--shiki-light:#[0-9a-f]+/i);
    expect(String(pre?.properties.style)).toMatch(/--shiki-dark:#[0-9a-f]+/i);
    expect(String(pre?.properties.style)).toMatch(/--shiki-light-bg:/);
    expect(String(pre?.properties.style)).toMatch(/--shiki-dark-bg:/);
    const tokens = elements(html, "span").filter((s) => s.properties.style !== undefined);
    expect(tokens.length).toBeGreaterThan(3);
    for (const token of tokens) {
      expect(String(token.properties.style)).toMatch(/^--shiki-light:#[0-9a-f]+;--shiki-dark:#[0-9a-f]+/i);
    }
    // No fixed colour: the page's theme picks one of the two through the variables.
    expect(html).not.toMatch(/[^-]color:/);
    expect(textContent(html)).toBe("const answer: number = 42;");
  });

  it("knows the short language names", async () => {
    for (const lang of ["js", "sh", "bash", "py", "yml", "md", "go", "rust", "sql", "diff", "json", "tsx", "css"]) {
      const { html } = await renderPost(`\`\`\`${lang}\nx = 1\n\`\`\`\n`);
      expect(html, lang).toContain('data-language="');
    }
  });

  it("shows code in an unknown language (or none) as plain text, escaped", async () => {
    for (const fence of ["```brainfuck", "```", "~~~ nope here"]) {
      const { html } = await renderPost(`${fence}\n<script>alert(1)</script> & x\n${fence.slice(0, 3)}\n`);
      expect(elements(html, "script")).toEqual([]);
      const [pre] = elements(html, "pre");
      expect(pre?.properties.className).toContain("shiki");
      expect(pre?.properties.dataLanguage).toBeUndefined();
      // One plain span per line: no token colours.
      expect(elements(html, "span").filter((s) => s.properties.style !== undefined)).toEqual([]);
      expect(textContent(html)).toBe("<script>alert(1)</script> & x");
    }
  });

  it("keeps markup inside highlighted code as text", async () => {
    const { html } = await renderPost('```html\n<script>alert(1)</script><img src=x onerror="alert(2)">\n```\n');
    expect(elements(html, "script")).toEqual([]);
    expect(elements(html, "img")).toEqual([]);
    expect(textContent(html)).toBe('<script>alert(1)</script><img src=x onerror="alert(2)">');
  });

  it("keeps site-relative and http(s) images, drops data: and javascript: ones", async () => {
    const { html } = await renderPost(
      "![a](/media/x.webp) ![b](https://cdn.example/y.png) ![c](data:image/png;base64,AAAA) ![d](javascript:alert(1))",
    );
    expect(elements(html, "img").map((i) => i.properties.src)).toEqual([
      "/media/x.webp",
      "https://cdn.example/y.png",
      undefined,
      undefined,
    ]);
  });

  it("marks external links noopener noreferrer and leaves site links alone", async () => {
    const { html } = await renderPost("[a](https://example.com) [b](//example.com/x) [c](/about) [d](#h-intro)");
    expect(elements(html, "a").map((a) => [a.properties.href, a.properties.rel])).toEqual([
      ["https://example.com", ["noopener", "noreferrer"]],
      ["//example.com/x", ["noopener", "noreferrer"]],
      ["/about", undefined],
      ["#h-intro", undefined],
    ]);
  });

  it("links footnotes to ids that exist, in the post's language", async () => {
    for (const [locale, label] of [
      ["en", "Footnotes"],
      ["zh", "脚注"],
    ] as const) {
      const { html, toc } = await renderPost("Text[^1] and more[^note].\n\n[^1]: One.\n[^note]: Two.\n", locale);
      const ids = new Set(elements(html).map((e) => e.properties.id));
      const targets = elements(html, "a").map((a) => String(a.properties.href));
      expect(targets.length).toBe(4);
      for (const target of targets) expect(ids, target).toContain(target.slice(1));
      expect(html).toContain(`>${label}</h2>`);
      expect(toc).toEqual([]);
    }
  });

  it("leaves the reading time as readingMinutes counts it", async () => {
    const markdown = `## 标题\n\n${"word ".repeat(500)}\n\n${"中文".repeat(300)}\n\n\`\`\`js\nlet x = 1;\n\`\`\`\n`;
    const out = await renderPost(markdown);
    expect(out.readingMinutes).toBe(readingMinutes(markdown));
    expect(out.readingMinutes).toBe(4);
  });

  it("puts each table in a named scroll box the keyboard can reach", async () => {
    for (const [locale, name] of [
      ["en", "Table"],
      ["zh", "表格"],
    ] as const) {
      const { html } = await renderPost("| a | b |\n| - | - |\n| 1 | 2 |\n", locale);
      const [box] = elements(html, "div");
      expect(box?.properties).toMatchObject({
        className: ["table-scroll"],
        role: "region",
        tabIndex: 0,
        ariaLabel: name,
      });
      expect(box?.children.some((c) => c.type === "element" && c.tagName === "table")).toBe(true);
    }
  });

  it("gives every code block a language label, a copy button and a status region", async () => {
    const { html } = await renderPost("```ts\nconst a = 1;\n```\n\n```toml\nb = 2\n```\n\n```\nplain\n```\n", "zh");
    const blocks = elements(html, "div").filter((d) => String(d.properties.className) === "code-block");
    expect(blocks.map((b) => b.properties.dataLanguage)).toEqual(["ts", "toml", undefined]);
    const buttons = elements(html, "button");
    expect(buttons).toHaveLength(3);
    expect(buttons[0]?.properties).toMatchObject({ type: "button", className: ["code-copy"], dataCopied: "已复制" });
    expect(elements(html, "span").filter((s) => s.properties.role === "status")).toHaveLength(3);
    expect(buttons.map((b) => b.children.map((c) => (c.type === "text" ? c.value : "")).join(""))).toEqual([
      "复制",
      "复制",
      "复制",
    ]);
    // The code itself is unchanged: the buttons' labels are the only text added.
    expect(textContent(html).replace(/\s+/g, "")).toBe("consta=1;b=2plain");
  });

  it("labels a block only with a safe fence language", async () => {
    const { html } = await renderPost('```"><script>x\ny\n```\n');
    expect(elements(html, "script")).toEqual([]);
    const [block] = elements(html, "div");
    // The fence's first word, with only letters, digits and + # . - left.
    expect(block?.properties.dataLanguage).toBe("scriptx");
  });

  it("makes a lone image a figure, its title the caption and its alt text kept", async () => {
    const { html } = await renderPost(
      '![A cat asleep](/media/x.webp "Our cat, Mochi")\n\nText ![inline](/i.png "t") here.\n',
    );
    const [figure] = elements(html, "figure");
    expect(figure).toBeDefined();
    const [img, caption] = elements(html, "img");
    expect(img?.properties).toMatchObject({ alt: "A cat asleep" });
    expect(img?.properties.title).toBeUndefined();
    expect(
      elements(html, "figcaption").map((c) =>
        textContent(`<p>${c.children.map((t) => (t.type === "text" ? t.value : "")).join("")}</p>`),
      ),
    ).toEqual(["Our cat, Mochi"]);
    // An image inside a sentence stays in its paragraph.
    expect(caption?.properties.title).toBe("t");
    expect(elements(html, "figure")).toHaveLength(1);
  });

  it("makes a lone image without a title a figure with no caption", async () => {
    const { html } = await renderPost("![Only alt](/media/y.webp)\n");
    expect(elements(html, "figure")).toHaveLength(1);
    expect(elements(html, "figcaption")).toEqual([]);
  });

  it("labels a task list's checkboxes with their item's text", async () => {
    const { html } = await renderPost("- [x] done *well*\n- [ ] not yet\n  - nested\n");
    const labels = elements(html, "label");
    expect(
      labels.map((l) =>
        textContent(
          `<p>${l.children.map((c) => (c.type === "text" ? c.value : c.type === "element" && c.tagName === "em" ? "well" : "")).join("")}</p>`,
        ).trim(),
      ),
    ).toEqual(["done well", "not yet"]);
    expect(labels.every((l) => l.children.some((c) => c.type === "element" && c.tagName === "input"))).toBe(true);
    // The nested list stays outside the label.
    expect(
      elements(html, "label")
        .flatMap((l) => l.children)
        .some((c) => c.type === "element" && c.tagName === "ul"),
    ).toBe(false);
  });
});

describe("markup a validator accepts", () => {
  // HTML's obsolete presentational attributes (W3C's checker warns on each).
  const OBSOLETE = [
    /<(?:table|thead|tbody|tfoot|tr|th|td|col)\b[^>]*\s(?:align|valign|bgcolor|border|cellpadding|cellspacing|frame|rules|char|charoff|nowrap|width|height)="/,
    /<(?:p|div|pre|hr|img|h[1-6]|caption|figure)\b[^>]*\s(?:align|border|hspace|vspace|noshade|size)="/,
  ];

  it("writes a table column's alignment as a class, not the align attribute", async () => {
    const markdown = "| a | b | c | d |\n| :-- | :-: | --: | --- |\n| 1 | 2 | 3 | 4 |";
    for (const html of [(await renderPost(markdown, "zh")).html, renderMarkdown(markdown)]) {
      expect(html).not.toMatch(/\salign="/);
      const cells = elements(html, "td").map((td) => td.properties.className ?? []);
      expect(cells).toEqual([["align-start"], ["align-center"], ["align-end"], []]);
      expect(elements(html, "th").map((th) => th.properties.className ?? [])).toEqual(cells);
    }
  });

  it("leaves no obsolete attribute in the demo style-guide post", async () => {
    for (const locale of ["en", "zh"] as const) {
      const { html } = await renderPost(SHOWCASE_MARKDOWN[locale], locale);
      expect(html).toContain("<table");
      for (const attribute of OBSOLETE) expect(html).not.toMatch(attribute);
    }
  });
});
