import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SourceRefused } from "./markdown-folder.server.ts";
import { autoParagraphs, convertContent, plainText } from "./wordpress/content.server.ts";
import { wordpressAuthor } from "./wordpress/items.server.ts";
import { loadWxr, parseWxr, WXR_TOKEN_MAX, wxrChunks } from "./wordpress/wxr.server.ts";
import { readWxr, wordpressImageResolver } from "./wordpress.server.ts";

const FIXTURE = path.resolve(import.meta.dirname, "../../../tests/fixtures/wordpress/export.xml");

const wxr = (items: string, head = "<wp:wxr_version>1.2</wp:wxr_version>") =>
  `<?xml version="1.0"?><rss version="2.0" xmlns:wp="http://wordpress.org/export/1.2/" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>${head}${items}</channel></rss>`;

const refusal = async (text: string | string[]) => {
  try {
    await parseWxr(Array.isArray(text) ? text : [text]);
  } catch (error) {
    expect(error).toBeInstanceOf(SourceRefused);
    return (error as Error).message;
  }
  throw new Error("not refused");
};

describe("reading a WordPress export", () => {
  it("reads posts, pages, drafts, private, scheduled and paired posts; skips trash and other types", async () => {
    const read = readWxr(await loadWxr(FIXTURE));
    expect(read.posts.map((p) => p.sourceId)).toEqual([
      "20",
      "30+31",
      "40",
      "41",
      "50",
      "80+81",
      "82",
      "60",
      "61",
      "62",
    ]);
    expect(read.problems).toEqual([
      { item: "Thrown away [63]", outcome: "skipped", reason: "wpTrash" },
      { item: "nav_menu_item", outcome: "skipped", reason: "wpPostType", detail: "1 item(s)" },
    ]);
    const by = new Map(read.posts.map((p) => [p.sourceId, p]));
    // Pages are read as pages (decision 035): in no category, with their old addresses.
    expect(by.get("50")).toMatchObject({ kind: "page", categories: [], status: "published" });
    expect(by.get("50")?.oldUrls).toEqual(["/about/", "/?page_id=50"]);
    expect(by.get("20")?.kind).toBeUndefined();
    // A Polylang pair of pages is one page in two languages; a child page keeps its nested address.
    expect(by.get("80+81")).toMatchObject({ kind: "page", slug: "visit-us" });
    expect(by.get("80+81")?.translations.map((t) => [t.locale, t.title])).toEqual([
      ["en", "Visit the shop"],
      ["zh", "到店品茶"],
    ]);
    expect(by.get("82")?.oldUrls).toEqual(["/visit-us/opening-hours/", "/?page_id=82", "/opening-hours/"]);
    expect(by.get("60")).toMatchObject({ status: "draft", slug: null, oldUrls: ["/?p=60"] });
    expect(by.get("61")).toMatchObject({ status: "draft" });
    expect(by.get("61")?.notes.map((n) => n.reason)).toContain("wpPrivate");
    expect(by.get("62")).toMatchObject({ status: "scheduled", publishedAt: "2999-01-01T00:00:00.000Z" });
  });

  it("reads a post's fields, categories flattened, tags, cover, old addresses and revisions", async () => {
    const read = readWxr(await loadWxr(FIXTURE));
    const post = read.posts.find((p) => p.sourceId === "20");
    expect(post).toMatchObject({
      slug: "brew-green-tea",
      status: "published",
      publishedAt: "2021-03-04T01:00:00.000Z",
      tags: ["Brewing"],
      // The child category is the post's; the parent (also checked) becomes a tag in the core.
      categories: ["Green tea", "Tea"],
      cover: "https://tea.example/wp-content/uploads/2021/03/kettle.png",
      coverAlt: "A copper kettle",
      tagUrls: [
        { from: "/tag/brewing/", tag: "Brewing" },
        // The parent category becomes a tag here: its old page leads to the tag's.
        { from: "/category/tea/", tag: "Tea" },
      ],
      // The child's address carries its parent, as WordPress links it.
      categoryUrls: ["/category/tea/green-tea/"],
    });
    expect(post?.oldUrls).toEqual([
      "/2021/03/04/brew-green-tea/",
      "/?p=20",
      "/brew-green-tea/",
      "/2021/03/brew-green-tea/",
    ]);
    const [t] = post?.translations ?? [];
    expect(t?.title).toBe("How to brew green tea & why");
    // No excerpt: the text before <!--more--> is the summary.
    expect(t?.summary).toBe("Water at 80°C, never boiling. Ünïcödé ✓ 🍵");
    expect(t?.bodyMarkdown).not.toContain("wp:paragraph");
    expect(t?.bodyMarkdown).not.toContain("more");
    expect(t?.bodyMarkdown).toContain("Ünïcödé ✓ 🍵");
    expect(t?.bodyMarkdown).toContain(
      "![kettle](https://tea.example/wp-content/uploads/2021/03/kettle.png)\n\n*The old kettle*",
    );
    expect(t?.bodyMarkdown).toContain(
      "![A copper kettle](https://tea.example/wp-content/uploads/2021/03/kettle.png) ![](https://tea.example/wp-content/uploads/2021/03/cups.png)",
    );
    expect(t?.bodyMarkdown).toContain('```python\ndef brew(t):\n    return t < 85 and "ok"\n```');
    expect(t?.bodyMarkdown).toContain("Second paragraph line one\\\nline two");
    expect(t?.bodyMarkdown).toContain('\\[contact-form-7 id="42" title="Contact"\\]');
    expect(t?.bodyMarkdown).not.toMatch(/javascript|<script|alert/);
    expect(post?.notes.filter((n) => n.reason === "wpShortcodeKept").map((n) => n.detail)).toEqual([
      "[contact-form-7]",
    ]);
    // Two authors in the export: each post names its own, to be matched or made when written.
    expect(post?.author).toEqual({
      sourceId: "mei",
      name: "Mei Lin",
      email: "mei@tea.example",
      oldUrls: ["/author/mei/"],
    });
    // Autosaves are left out; revisions oldest first.
    expect(post?.revisions?.map((r) => [r.sourceId, r.title, r.bodyMarkdown.trim()])).toEqual([
      ["21", "How to brew tea (first draft)", "Boil the water."],
      ["22", "How to brew tea", "Water at 80°C."],
    ]);
  });

  it("keeps approved and pending comments with their replies; spam, trash and pingbacks are left out", async () => {
    const read = readWxr(await loadWxr(FIXTURE));
    const post = read.posts.find((p) => p.sourceId === "20");
    expect(post?.comments).toEqual([
      {
        sourceId: "100",
        parentSourceId: null,
        status: "approved",
        authorName: "Ann Reader",
        authorEmail: "ann@reader.example",
        authorUrl: "https://ann.example",
        createdAt: "2021-03-05T02:00:00.000Z",
        bodyMarkdown: "Lovely post! Which *kettle* is it?",
      },
      expect.objectContaining({ sourceId: "101", parentSourceId: "100", status: "approved", authorName: "Mei Lin" }),
      // A reply to a reply hangs under the top-level comment (one level of replies here).
      expect.objectContaining({ sourceId: "102", parentSourceId: "100", status: "pending" }),
    ]);
    const notes = Object.fromEntries((post?.notes ?? []).map((n) => [n.reason, n.detail]));
    expect(notes.wpCommentsSpam).toBe("2");
    expect(notes.wpPingbacks).toBe("1");
  });

  it("pairs a Polylang English and Chinese post into one; an unclear group stays apart and is listed", async () => {
    const read = readWxr(await loadWxr(FIXTURE));
    const pair = read.posts.find((p) => p.sourceId === "30+31");
    expect(pair?.translations.map((t) => [t.locale, t.title, t.summary])).toEqual([
      ["en", "Oolong notes", "Between green and black."],
      ["zh", "乌龙茶笔记", ""],
    ]);
    expect(pair?.translations[0]?.bodyMarkdown).toBe(
      "Oolong sits between green and black tea.\n\nIt likes hot water.\n",
    );
    expect(pair?.oldUrls).toContain("/zh/2021/04/oolong-zh/");
    expect(pair?.oldUrls).toContain("/?p=31");
    expect(pair?.comments?.map((c) => c.authorName)).toEqual(["小王"]);
    for (const id of ["40", "41"]) {
      const lone = read.posts.find((p) => p.sourceId === id);
      expect(lone?.notes).toContainEqual(
        expect.objectContaining({
          outcome: "ambiguous",
          reason: "pairingAmbiguous",
          detail: "pll_black: 40/en, 41/en",
        }),
      );
    }
  });

  it("sets the language of posts without one from --lang, else guesses it from the title", async () => {
    const items = `<item><title>你好</title><wp:post_id>1</wp:post_id><wp:status>draft</wp:status><wp:post_type>post</wp:post_type></item>
      <item><title>Hello</title><wp:post_id>2</wp:post_id><wp:status>draft</wp:status><wp:post_type>post</wp:post_type></item>`;
    const doc = await parseWxr([wxr(items)]);
    expect(readWxr(doc).posts.map((p) => p.translations[0]?.locale)).toEqual(["zh", "en"]);
    expect(readWxr(doc, { locale: "en" }).posts.map((p) => p.translations[0]?.locale)).toEqual(["en", "en"]);
  });

  it("never looks at serialized post meta and reads a file given in tiny pieces the same way", async () => {
    const text = wxr(
      `<item><title>A</title><wp:post_id>1</wp:post_id><wp:status>publish</wp:status><wp:post_type>post</wp:post_type>
       <wp:postmeta><wp:meta_key>_evil</wp:meta_key><wp:meta_value><![CDATA[O:8:"Exploit":1:{s:4:"x";a:999999999:{]]></wp:meta_value></wp:postmeta>
       <content:encoded><![CDATA[<p>Body</p>]]></content:encoded></item>`,
    );
    const whole = readWxr(await parseWxr([text]));
    const pieces = readWxr(await parseWxr(text.match(/[\s\S]{1,7}/g) ?? []));
    expect(pieces.posts).toEqual(whole.posts);
    expect(whole.posts[0]?.translations[0]?.bodyMarkdown).toBe("Body\n");
  });
});

describe("refusing what is not a WordPress export", () => {
  it("refuses other XML, JSON and text", async () => {
    expect(await refusal('<?xml version="1.0"?><feed><entry/></feed>')).toMatch(/not a WordPress export.*<feed>/);
    expect(await refusal("<rss><channel><title>plain RSS</title></channel></rss>")).toMatch(/no wp:wxr_version/);
    expect(await refusal('{"db": []}')).toMatch(/not well-formed XML/);
    expect(await refusal("")).toMatch(/not an XML file/);
    expect(await refusal(wxr("", "<wp:wxr_version>9.9</wp:wxr_version>"))).toMatch(/unsupported WXR version/);
  });

  it("refuses a DOCTYPE: no entity expansion (billion laughs) and no external entities (XXE)", async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
      <rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>&lol3;</title></item></channel></rss>`;
    expect(await refusal(bomb)).toMatch(/DOCTYPE/);
    const xxe = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss><channel><wp:wxr_version>1.2</wp:wxr_version><item><title>&xxe;</title></item></channel></rss>`;
    expect(await refusal(xxe)).toMatch(/DOCTYPE/);
    // Without a DTD an unknown entity is simply an error.
    expect(await refusal(wxr("<item><title>&lol9;</title></item>"))).toMatch(/not well-formed XML/);
  });

  it("refuses broken XML with the parser's position", async () => {
    expect(await refusal(wxr("<item><title>unclosed</item>"))).toMatch(/not well-formed XML: .*\d+:\d+/);
    expect(await refusal('<?xml version="1.0"?><rss><channel><wp:wxr_version>1.2</wp:wxr_version>')).toMatch(
      /not well-formed XML/,
    );
  });

  it("refuses one endless text (a 1 GB line) without holding it all", async () => {
    function* endless() {
      yield wxr("").replace("</channel></rss>", "<item><title>");
      const piece = "x".repeat(1024 * 1024);
      for (let i = 0; i < 1024; i++) yield piece;
    }
    let yielded = 0;
    const counted = (function* () {
      for (const p of endless()) {
        yielded += p.length;
        yield p;
      }
    })();
    expect(await refusal([])).toMatch(/not an XML file/);
    await expect(parseWxr(counted)).rejects.toThrow(/longer than/);
    expect(yielded).toBeLessThan(WXR_TOKEN_MAX + 2 * 1024 * 1024);
  });

  it("reads an upload in memory in the pieces a stream gives", async () => {
    const text = wxr("<item><title>A</title><wp:post_id>1</wp:post_id><wp:post_type>post</wp:post_type></item>");
    expect([...wxrChunks(text, 10)].join("")).toBe(text);
    expect((await parseWxr(wxrChunks(text, 10))).items).toHaveLength(1);
  });
});

describe("converting WordPress content", () => {
  const ctx = { postId: "1", attachments: new Map() };

  it("strips Gutenberg comments and makes paragraphs of classic text", () => {
    const out = convertContent(
      '<!-- wp:heading {"level":2} -->\n<h2>Title</h2>\n<!-- /wp:heading -->\n\nOne\ntwo\n\nThree',
      ctx,
    );
    expect(out.markdown).toBe("## Title\n\nOne\\\ntwo\n\nThree\n");
    expect(convertContent("<pre>a\n\nb</pre>", ctx).markdown).toBe("```\na\n\nb\n```\n");
    expect(autoParagraphs("<ul><li>a</li></ul>\n\nb")).toBe("<ul><li>a</li></ul>\n\n<p>b</p>");
  });

  it("keeps code blocks whole and escaped, and lists unknown shortcodes once", () => {
    const out = convertContent(
      "[sourcecode language='html']\n<b>x</b>\n\n[y]\n[/sourcecode]\n\n[audio src=\"a.mp3\"] [see above] [/embed]",
      ctx,
    );
    expect(out.markdown).toContain("```html\n<b>x</b>\n\n[y]\n```");
    expect(out.shortcodesKept.sort()).toEqual(["audio", "embed"]);
  });

  it("reports a gallery without pictures and turns text into plain summaries", () => {
    expect(convertContent("[gallery]", ctx).galleriesEmpty).toBe(1);
    expect(plainText("<p>a&amp;b</p><p>c&#x4e2d;&#25991;</p>")).toBe("a&b c中文");
  });
});

describe("finding WordPress images", () => {
  it("looks up wp-content/uploads addresses in the given folder; others stay remote", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "wp-images-"));
    try {
      await mkdir(path.join(dir, "uploads/2021/03"), { recursive: true });
      await writeFile(path.join(dir, "uploads/2021/03/kettle.png"), "png");
      const resolver = wordpressImageResolver(dir, 1024);
      expect(await resolver.resolve("https://tea.example/wp-content/uploads/2021/03/kettle.png", [""])).toMatchObject({
        kind: "file",
      });
      expect(await resolver.resolve("https://cdn.example/wp-content/uploads/2021/03/gone.png", [""])).toMatchObject({
        kind: "missing",
        reason: "notFound",
      });
      expect(await resolver.resolve("https://other.example/pic.png", [""])).toEqual({ kind: "remote" });
      expect(await resolver.resolve("https://x.example/wp-content/uploads/../../etc/passwd", [""])).not.toMatchObject({
        kind: "file",
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("wordpressAuthor", () => {
  it("redirects the login and the nicename WordPress makes from it, never with an odd name", () => {
    const authors = new Map([["Jo.Smith@mail.example", { name: "Jo\u202E Smith", email: "not an address" }]]);
    expect(wordpressAuthor("Jo.Smith@mail.example", authors)).toEqual({
      sourceId: "Jo.Smith@mail.example",
      name: "Jo Smith",
      email: null,
      oldUrls: ["/author/Jo.Smith%40mail.example/", "/author/jo-smithmail-example/"],
    });
    expect(wordpressAuthor("  ", authors)).toBeNull();
    expect(wordpressAuthor("<script>", new Map())?.oldUrls).toEqual(["/author/script/"]);
  });
});
