import fc from "fast-check";
import type { Element, Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import { describe, expect, it } from "vitest";
import { commentSchema, renderComment, sanitizeSchema, visitElements } from "./markdown.server.ts";
import { renderPost } from "./post-render.server.ts";

// Whatever the input, rendered posts and comments never carry a script, an event
// handler, an embedded frame or a URL that could run code. The output is parsed
// the way a browser would (parse5, through hast-util-from-html), not matched with
// regular expressions.

const BASE = "https://inkwell.example/posts/detail/1";
const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
/** Properties (hast names) that hold a URL a browser may load or navigate to. */
const URL_PROPERTIES = [
  "href",
  "src",
  "srcSet",
  "action",
  "formAction",
  "poster",
  "cite",
  "longDesc",
  "background",
  "data",
  "codeBase",
  "xLinkHref",
  "ping",
  "manifest",
];
const NEVER = new Set(["script", "iframe", "frame", "object", "embed", "svg", "math", "style", "link", "meta", "base"]);
/** Shiki's only styles: its theme variables. Nothing from the input ever reaches `style`. */
const SHIKI_STYLE = /^(?:--shiki-[a-z-]+:[^;"<>]+;?)+$/;

/**
 * A URL is safe when its scheme, read the way the URL standard reads it (outer
 * spaces and controls trimmed, tabs and newlines removed), is http(s) or mailto,
 * or when it has none (relative to the site). A URL the standard cannot parse
 * (`http://www.data:x`, `//host:port:`) is never loaded or followed: harmless.
 */
function safeUrl(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the URL standard strips exactly these
  const cleaned = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned)?.[1];
  if (scheme !== undefined && !SAFE_PROTOCOLS.has(`${scheme.toLowerCase()}:`)) return false;
  try {
    return SAFE_PROTOCOLS.has(new URL(url, BASE).protocol);
  } catch {
    return true;
  }
}

function problems(html: string, allowedTags: ReadonlySet<string>, allowShikiStyle: boolean): string[] {
  const found: string[] = [];
  visitElements(fromHtml(html, { fragment: true }) as Root, (element: Element) => {
    const tag = element.tagName.toLowerCase();
    if (NEVER.has(tag) || !allowedTags.has(tag)) found.push(`element <${tag}>`);
    for (const [name, value] of Object.entries(element.properties)) {
      if (name.toLowerCase().startsWith("on")) found.push(`handler ${name} on <${tag}>`);
      if (name === "srcDoc") found.push(`srcdoc on <${tag}>`);
      if (name === "style" && !(allowShikiStyle && SHIKI_STYLE.test(String(value)))) {
        found.push(`style ${JSON.stringify(value)} on <${tag}>`);
      }
      if (URL_PROPERTIES.includes(name)) {
        for (const url of Array.isArray(value) ? value : [value]) {
          if (!safeUrl(String(url))) found.push(`${name}=${JSON.stringify(url)} on <${tag}>`);
        }
      }
    }
  });
  return found;
}

/** The sanitizer's tags, and the ones post-markup.server.ts adds after it (copy buttons, figures). */
const postTags = new Set([...(sanitizeSchema.tagNames ?? []), "button", "figure", "figcaption"]);
const commentTags = new Set(commentSchema.tagNames ?? []);

/** Pieces of attacks and of the Markdown around them, glued together at random. */
const FRAGMENTS = [
  "<script>alert(1)</script>",
  "<script",
  "</script>",
  "<scr<script>ipt>",
  "onerror=",
  'onerror="alert(1)"',
  " onload=alert(1) ",
  "<img src=x onerror=alert(1)>",
  "<iframe src=//evil.example>",
  "<iframe",
  "<svg onload=alert(1)>",
  "<svg><script>alert(1)</script></svg>",
  "<math><mi xlink:href=javascript:alert(1)>",
  '<a href="javascript:alert(1)">',
  "<object data=javascript:alert(1)>",
  "<embed src=data:text/html,x>",
  "<style>*{}</style>",
  '<div style="background:url(javascript:alert(1))">',
  "<form action=javascript:alert(1)><button formaction=javascript:alert(1)>",
  "<base href=//evil.example>",
  "javascript:",
  "javascript:alert(1)",
  "JaVaScRiPt:",
  "java\tscript:",
  "java\nscript:",
  " javascript:",
  "\u0000javascript:",
  "vbscript:",
  "data:",
  "data:text/html;base64,PHNjcmlwdD4=",
  "data:image/svg+xml,<svg onload=alert(1)>",
  "&#106;avascript:",
  "&#x6A;avascript:",
  "&#0000106;avascript:",
  "javascript&#58;",
  "javascript&colon;",
  "&lt;script&gt;",
  "&#60;script&#62;",
  "%6A%61vascript:",
  "\\u003cscript",
  "//evil.example",
  "https://ok.example/x",
  "mailto:a@b.example",
  "/media/x.webp",
  "[x](",
  "](",
  "![x](",
  ")",
  "<",
  ">",
  '"',
  "'",
  "`",
  "```",
  "```html\n",
  "```js\n",
  "```unknown\n",
  "~~~\n",
  "\n",
  "\n\n",
  "# ",
  "## ",
  "> ",
  "- ",
  "1. ",
  "| a | b |\n|---|---|\n",
  "[^1]",
  "[^1]: ",
  "[r]: ",
  "[r]",
  "<https://",
  "<javascript:alert(1)>",
  "www.",
  "@example.com",
  " ",
  "alert(1)",
];

/** Half the time as written, else with the case of its letters mixed at random. */
function mixedCase(text: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(text),
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join("")),
  );
}

const fragment = fc.constantFrom(...FRAGMENTS).chain(mixedCase);

/** Targets for links and images: schemes, encodings and hosts, glued together. */
const URL_PIECES = [
  "javascript:",
  "javascript:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "data:image/png;base64,AAAA",
  "&#106;avascript:alert(1)",
  "&#x6A;avascript:",
  "javascript&#58;alert(1)",
  "javascript&colon;alert(1)",
  "java%0ascript:",
  "\tjavascript:",
  "https://ok.example/",
  "http:",
  "mailto:",
  "//evil.example",
  "/media/x.webp",
  "#h-top",
  "?q=1",
  "alert(1)",
  ":",
  "%3A",
  "&",
];
const url = fc
  .array(fc.constantFrom(...URL_PIECES).chain(mixedCase), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(""));
const link = fc.oneof(
  url.map((u) => `[text](${u})`),
  url.map((u) => `![alt](${u})`),
  url.map((u) => `[text](<${u}>)`),
  url.map((u) => `[text](${u} "title")`),
  url.map((u) => `<${u}>`),
  url.map((u) => `[r]\n\n[r]: ${u}\n`),
  url.map((u) => `![r]\n\n[r]: ${u}\n`),
  url.map((u) => `<a href="${u}">x</a>`),
  url.map((u) => `<img src="${u}">`),
);
const dangerous = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fragment },
      { weight: 2, arbitrary: link },
      { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(""));
const arbitraryText = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 120 }),
  fc.string({ unit: "binary-ascii", maxLength: 200 }),
);

const RUNS = 400;

describe("sanitized output", () => {
  it("the checker itself finds the dangers it looks for", () => {
    expect(problems('<p onclick="x">a</p>', postTags, false)).toEqual(["handler onClick on <p>"]);
    expect(problems("<script>alert(1)</script>", postTags, false)).toEqual(["element <script>"]);
    expect(problems('<iframe src="https://x.example"></iframe>', postTags, false)).toContain("element <iframe>");
    expect(problems('<a href=" JAVA&#9;script:alert(1)">x</a>', postTags, false)).toHaveLength(1);
    expect(problems('<img src="data:image/png;base64,AA">', postTags, false)).toHaveLength(1);
    expect(problems('<span style="color:red">x</span>', postTags, true)).toHaveLength(1);
    expect(problems('<a href="/ok">x</a><img src="//cdn.example/x.png">', postTags, false)).toEqual([]);
  });

  it("of renderPost is safe for arbitrary strings", async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryText, async (markdown) => {
        expect(problems((await renderPost(markdown)).html, postTags, true)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it("of renderPost is safe for strings built from dangerous fragments", async () => {
    await fc.assert(
      fc.asyncProperty(dangerous, async (markdown) => {
        expect(problems((await renderPost(markdown)).html, postTags, true)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it("of renderComment is safe for arbitrary strings", () => {
    fc.assert(
      fc.property(arbitraryText, (markdown) => {
        expect(problems(renderComment(markdown), commentTags, false)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);

  it("of renderComment is safe for strings built from dangerous fragments", () => {
    fc.assert(
      fc.property(dangerous, (markdown) => {
        expect(problems(renderComment(markdown), commentTags, false)).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
