import { describe, expect, it } from "vitest";
import { renderPost } from "../render/post-render.server.ts";
import {
  absoluteUrl,
  mailBodyHtml,
  mailBodyText,
  PLACEHOLDER,
  personalize,
  pickVariant,
  renderNewsletter,
} from "./mail-html.server.ts";

const SITE = "https://blog.example";

describe("newsletter mail HTML", () => {
  it("picks the widest image variant up to 1200w, else the narrowest", () => {
    expect(pickVariant("/m/a-480.webp 480w, /m/a-960.webp 960w, /m/a-1600.webp 1600w")).toBe("/m/a-960.webp");
    expect(pickVariant("/m/a-1600.webp 1600w, /m/a-2400.webp 2400w")).toBe("/m/a-1600.webp");
    expect(pickVariant("nonsense")).toBeNull();
  });

  it("makes site links absolute and leaves others alone", () => {
    expect(absoluteUrl("/posts/detail/x", SITE)).toBe(`${SITE}/posts/detail/x`);
    expect(absoluteUrl("//cdn.example/a.png", SITE)).toBe("https://cdn.example/a.png");
    expect(absoluteUrl("https://x.test/", SITE)).toBe("https://x.test/");
  });

  it("inlines styles, keeps code readable and drops what a mail cannot use", async () => {
    const { html } = await renderPost(
      [
        "Intro with [a link](/posts/detail/abc) and a note[^1].",
        "",
        "### A third-level heading",
        "",
        "```js",
        "const answer = 42;",
        "```",
        "",
        "| a | b |",
        "|---|---|",
        "| 1 | 2 |",
        "",
        "![A cat](/media/abc/cat.jpg)",
        "",
        "- [x] done",
        "",
        "[^1]: The note.",
      ].join("\n"),
      "en",
    );
    const mail = mailBodyHtml(html, SITE);
    expect(mail).toContain(`href="${SITE}/posts/detail/abc"`);
    expect(mail).toContain(`src="${SITE}/media/abc/cat.jpg"`);
    expect(mail).toMatch(/<h3 style="[^"]*font-weight:700/);
    expect(mail).toMatch(/<pre[^>]* style="[^"]*background:#f4f4f5/);
    // Shiki's light colours become plain colours; its CSS variables are gone.
    expect(mail).toMatch(/<span style="color:#[0-9A-Fa-f]{6}">const<\/span>/);
    expect(mail).not.toContain("--shiki");
    expect(mail).toMatch(/<td style="[^"]*border:1px solid/);
    expect(mail).toContain("☑");
    expect(mail).not.toContain("<input");
    // Footnote links point into the page: the text stays, the link goes.
    expect(mail).not.toContain('href="#');
    expect(mail).not.toContain("class=");
  });

  it("writes a plain-text twin with links after their text and code indented", async () => {
    const { html } = await renderPost(
      "Read [the guide](/guide).\n\n## Steps\n\n1. one\n2. two\n\n```\nnpm start\n```\n\n> quoted\n",
      "en",
    );
    const text = mailBodyText(html, SITE);
    expect(text).toContain(`Read the guide (${SITE}/guide).`);
    expect(text).toMatch(/Steps\n=+/);
    expect(text).toContain("1. one\n2. two");
    expect(text).toContain("    npm start");
    expect(text).toContain("> quoted");
  });

  it("renders a whole mail with preheader, read-on-site link and per-reader links", () => {
    const mail = renderNewsletter(
      {
        locale: "zh",
        siteName: "墨水博客",
        title: "标题 <b>",
        summary: "摘要",
        coverUrl: "/media/c/cover.jpg",
        coverAlt: "封面",
        bodyHtml: "<p>正文</p>",
        postUrl: `${SITE}/zh/posts/detail/p1`,
        dateLine: "2026年11月26日",
        strings: { readOnSite: "在网站上阅读", footer: "页脚", unsubscribe: "退订", preferences: "更改语言" },
      },
      SITE,
    );
    expect(mail.subject).toBe("标题 <b>");
    expect(mail.html).toContain('<html lang="zh-CN">');
    expect(mail.html).toContain("标题 &lt;b&gt;");
    expect(mail.html).toContain(`src="${SITE}/media/c/cover.jpg"`);
    expect(mail.html).toContain(PLACEHOLDER.unsubscribe);
    expect(mail.text).toContain(`在网站上阅读: ${SITE}/zh/posts/detail/p1`);
    const mine = personalize(mail, { unsubscribe: `${SITE}/zh/unsubscribe?token=a.b&x=1`, preferences: "P" });
    expect(mine.html).toContain(`${SITE}/zh/unsubscribe?token=a.b&amp;x=1`);
    expect(mine.text).toContain(`退订: ${SITE}/zh/unsubscribe?token=a.b&x=1`);
    expect(mine.html).not.toContain("%%");
  });

  it("shows the brand's logo above the site's name and its accent on the button", () => {
    const content = {
      locale: "en" as const,
      siteName: "Inkwell",
      title: "Title",
      summary: "",
      coverUrl: null,
      coverAlt: "",
      bodyHtml: "<p>Body</p>",
      postUrl: `${SITE}/en/posts/detail/p1`,
      dateLine: "",
      strings: {
        readOnSite: "Read on the site",
        footer: "Footer",
        unsubscribe: "Unsubscribe",
        preferences: "Language",
      },
    };
    const plain = renderNewsletter(content, SITE);
    expect(plain.html).not.toContain('height="40"');
    const branded = renderNewsletter(
      { ...content, logo: { url: "/media/l/image.png", width: 300, height: 100 }, accent: "#be123c" },
      SITE,
    );
    expect(branded.html).toContain(`<img src="${SITE}/media/l/image.png" alt="" height="40" width="120"`);
    expect(branded.html.indexOf("/media/l/image.png")).toBeLessThan(branded.html.indexOf(">Inkwell<"));
    expect(branded.html).toContain("background:#be123c;color:#ffffff");
    expect(plain.html).not.toContain("#be123c");
  });
});
