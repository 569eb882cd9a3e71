import { describe, expect, it } from "vitest";
import { HTML_MAX_DEPTH, htmlToMarkdown, safeUrl } from "./html-markdown.server.ts";

const md = (html: string) => htmlToMarkdown(html).markdown;

describe("HTML to Markdown", () => {
  it("converts the elements an editor writes", () => {
    expect(md("<h1>Title</h1><h3>Sub <em>part</em></h3>")).toBe("# Title\n\n### Sub *part*\n");
    expect(md("<p>A <strong>b</strong> <i>c</i> <del>d</del> <code>e`f</code></p>")).toBe(
      "A **b** *c* ~~d~~ `` e`f ``\n",
    );
    expect(md('<p><a href="https://x.test/a b" title="T">link</a></p>')).toBe('[link](https://x.test/a%20b "T")\n');
    expect(md("<p>one<br>two</p>")).toBe("one\\\ntwo\n");
    expect(md('<ul><li>a</li><li>b<ol start="3"><li>c</li></ol></li></ul>')).toBe("- a\n- b\n  3. c\n");
    expect(md("<ol><li><p>x</p><p>y</p></li></ol>")).toBe("1. x\n\n   y\n");
    expect(md("<blockquote><p>q1</p><p>q2</p></blockquote>")).toBe("> q1\n>\n> q2\n");
    expect(md('<pre><code class="language-ts">a```b\n</code></pre>')).toBe("````ts\na```b\n````\n");
    expect(md("<p>x</p><hr><p>y</p>")).toBe("x\n\n---\n\ny\n");
  });

  it("keeps a figure's image and caption, and other cards as HTML", () => {
    const out = htmlToMarkdown(
      '<figure class="kg-card kg-image-card"><img src="/i.png" alt="Alt [x]"><figcaption>Cap</figcaption></figure>' +
        '<figure class="kg-card kg-embed-card"><iframe src="https://v.test/"></iframe></figure><table><tr><td>1</td></tr></table>',
    );
    expect(out.markdown).toContain("![Alt \\[x\\]](/i.png)\n\n*Cap*");
    expect(out.markdown).toContain(
      '<figure class="kg-card kg-embed-card"><iframe src="https://v.test/"></iframe></figure>',
    );
    expect(out.keptAsHtml).toEqual(["kg-embed-card", "table"]);
  });

  it("escapes text that would become Markdown", () => {
    expect(md("<p># not a heading *not em* [x](y) &lt;b&gt;</p>")).toBe(
      "\\# not a heading \\*not em\\* \\[x\\](y) \\<b\\>\n",
    );
    expect(md("<p>1. not a list</p>")).toBe("1\\. not a list\n");
  });

  it("drops script and script-like links, never throws on hostile input", () => {
    expect(
      md(
        '<p><a href="javascript:alert(1)">x</a><a href=" jav&#x09;ascript:alert(2)">y</a></p><script>alert(3)</script>',
      ),
    ).toBe("xy\n");
    expect(md('<img src="data:text/html,<script>alert(1)</script>"><img src="vbscript:x">')).toBe("");
    expect(safeUrl("JAVASCRIPT:alert(1)")).toBeNull();
    expect(safeUrl("/relative")).toBe("/relative");
    expect(safeUrl("mailto:a@b.test")).toBe("mailto:a@b.test");
    for (const n of [200, 5000]) {
      const deep = `${"<div><blockquote>".repeat(n)}deep<script>x</script>${"</blockquote></div>".repeat(n)}`;
      const out = htmlToMarkdown(deep);
      expect(out.flattened).toBe(true);
      expect(out.markdown).toContain("deep");
      expect(out.markdown).not.toContain("script");
    }
    expect(HTML_MAX_DEPTH).toBeLessThan(100);
    expect(htmlToMarkdown("<p>unclosed <b>bold <i>it").markdown).toBe("unclosed **bold *it***\n");
  });
});
