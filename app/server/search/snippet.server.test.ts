import { describe, expect, it } from "vitest";
import { escapeHtml, makeSnippet, resultSnippet, SNIPPET_LENGTH, tokenPattern } from "./snippet.server.ts";
import { BLOCK_SEPARATOR, bodyText, htmlToText, snippetTexts } from "./text.server.ts";

/** The snippet with its marks removed and entities decoded: the plain text it shows. */
const plain = (html: string) => htmlToText(html.replaceAll("<mark>", "").replaceAll("</mark>", ""));

describe("escapeHtml", () => {
  it("escapes the five HTML-significant characters", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });
});

describe("makeSnippet", () => {
  it("marks whole English words, case-insensitively, and not inside other words", () => {
    const { html, matched } = makeSnippet("Testing a Test of the latest test.", ["test"]);
    expect(html).toBe("Testing a <mark>Test</mark> of the latest <mark>test</mark>.");
    expect(matched).toBe(1);
  });

  it("marks Chinese words inside running text, the longest token first", () => {
    expect(makeSnippet("我们在测试中文搜索功能", ["测试", "中文", "中文搜索"]).html).toBe(
      "我们在<mark>测试</mark><mark>中文搜索</mark>功能",
    );
  });

  it("escapes the text and only ever adds <mark> tags", () => {
    const { html } = makeSnippet(`<script>alert("x")</script> & the alert`, ["alert", "script"]);
    expect(html).toBe(
      "&lt;<mark>script</mark>&gt;<mark>alert</mark>(&quot;x&quot;)&lt;/<mark>script</mark>&gt; &amp; the <mark>alert</mark>",
    );
    expect(html.replace(/<\/?mark>/g, "")).not.toMatch(/[<>]/);
  });

  it("cuts a window around the matches with ellipses", () => {
    const text = `${"lorem ipsum ".repeat(40)}the needle is here ${"dolor sit ".repeat(40)}`;
    const { html } = makeSnippet(text, ["needle"]);
    expect(html.startsWith("…")).toBe(true);
    expect(html.endsWith("…")).toBe(true);
    expect(html).toContain("<mark>needle</mark>");
    expect(plain(html).length).toBeLessThanOrEqual(SNIPPET_LENGTH + 2);
  });

  it("shows a short text whole, even with the match far into it", () => {
    const text = "The <script> tag of this sentence stands next to a walrus, harmless.";
    expect(text.length).toBeLessThan(SNIPPET_LENGTH);
    expect(makeSnippet(text, ["walrus"]).html).toBe(
      "The &lt;script&gt; tag of this sentence stands next to a <mark>walrus</mark>, harmless.",
    );
  });

  it("prefers the window holding the most distinct tokens", () => {
    const text = `alpha ${"filler ".repeat(60)}alpha beta together ${"filler ".repeat(60)}`;
    const { html, matched } = makeSnippet(text, ["alpha", "beta"]);
    expect(matched).toBe(2);
    expect(html).toContain("<mark>alpha</mark> <mark>beta</mark> together");
  });

  it("shows the start of the text when nothing matches", () => {
    expect(makeSnippet("Short text.", ["absent"])).toEqual({ html: "Short text.", matched: 0 });
    expect(makeSnippet("", ["absent"])).toEqual({ html: "", matched: 0 });
  });

  it("takes tokens that look like regular expression syntax literally", () => {
    expect(() => tokenPattern(["a.b", "(", "[", "\\"])).not.toThrow();
    expect(makeSnippet("a.b axb", ["a.b"]).html).toBe("<mark>a.b</mark> axb");
  });
});

describe("resultSnippet", () => {
  it("uses the body when it shows more of the query than the summary", () => {
    expect(resultSnippet({ summary: "About kysely.", body: "Kysely and sqlite together." }, ["kysely", "sqlite"])).toBe(
      "<mark>Kysely</mark> and <mark>sqlite</mark> together.",
    );
  });

  it("uses the summary on ties, and when the match was in the title only", () => {
    expect(resultSnippet({ summary: "About kysely.", body: "Kysely body." }, ["kysely"])).toBe(
      "About <mark>kysely</mark>.",
    );
    expect(resultSnippet({ summary: "A summary.", body: "A body." }, ["title"])).toBe("A summary.");
    expect(resultSnippet({ summary: "", body: "A body." }, ["title"])).toBe("A body.");
  });
});

describe("htmlToText and bodyText", () => {
  it("strips tags, keeps words of inline markup together, and decodes entities", () => {
    expect(
      htmlToText(
        `<h2 id="a">Title</h2><p>Some <em>em</em>phasis &#x3C;script&#x3E; &amp; &lt;b&gt; &quot;q&quot; &#20013;</p><pre><code><span style="x">const</span><span> a = "&#x3C;";</span></code></pre><a href="/x?a>b">link</a>`,
      ),
    ).toBe(`Title Some emphasis <script> & <b> "q" 中 const a = "<"; link`);
  });

  it("uses the Markdown source when the body was stored without HTML", () => {
    expect(bodyText({ bodyHtml: "", bodyMarkdown: "# Hi\n\nthere" })).toBe("# Hi there");
    expect(bodyText({ bodyHtml: "<p>rendered</p>", bodyMarkdown: "source" })).toBe("rendered");
  });
});

describe("snippets keep blocks apart and prefer prose", () => {
  const html =
    '<h2 id="h-a">Testing</h2><p>Write the test first.</p><ul><li>one item</li><li>another item</li></ul>' +
    '<div class="code-block" data-language="ts"><pre class="shiki"><code><span class="line"><span>import { describe, expect } from "vitest";</span></span></code></pre>' +
    '<button type="button" class="code-copy" data-copied="Copied">Copy</button><span class="code-status" role="status"></span></div>' +
    "<p>Then describe what it checks.</p>";

  it("divides the body into blocks, with the code apart from the prose", () => {
    const texts = snippetTexts({ bodyHtml: html, bodyMarkdown: "" });
    expect(texts.body).toBe(
      [
        "Testing",
        "Write the test first.",
        "one item",
        "another item",
        'import { describe, expect } from "vitest";',
        "Then describe what it checks.",
      ].join(BLOCK_SEPARATOR),
    );
    expect(texts.prose).toBe(
      ["Testing", "Write the test first.", "one item", "another item", "Then describe what it checks."].join(
        BLOCK_SEPARATOR,
      ),
    );
    // The copy button's label is no part of the text (nor of the index: bodyText).
    expect(bodyText({ bodyHtml: html, bodyMarkdown: "" })).not.toContain("Copy");
  });

  it("divides a body stored without HTML at its blank lines", () => {
    expect(snippetTexts({ bodyHtml: "", bodyMarkdown: "# Hi\n\nthere\nagain" }).body).toBe(
      `# Hi${BLOCK_SEPARATOR}there again`,
    );
  });

  it("shows prose when it holds the query as well as the code does, and code when only code does", () => {
    const texts = snippetTexts({ bodyHtml: html, bodyMarkdown: "" });
    expect(resultSnippet({ summary: "", ...texts }, ["describe"])).toBe(
      `Testing · Write the test first. · one item · another item · Then <mark>describe</mark> what it checks.`,
    );
    expect(resultSnippet({ summary: "", ...texts }, ["vitest"])).toContain("from &quot;<mark>vitest</mark>&quot;;");
  });

  it("never starts or ends a cut snippet on a separator", () => {
    const long = Array.from({ length: 30 }, (_, i) => `Block number ${i} has words`).join(BLOCK_SEPARATOR);
    const { html: snippet } = makeSnippet(long, ["17"]);
    expect(snippet).toMatch(/^…[^·\s]/);
    expect(snippet).toMatch(/[^·\s]…$/);
    expect(snippet).toContain("<mark>17</mark>");
  });
});
