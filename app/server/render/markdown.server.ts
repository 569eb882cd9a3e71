import { createHash } from "node:crypto";
import type { Root } from "hast";
import { fromHtml } from "hast-util-from-html";
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { type Processor, unified } from "unified";
import { MarkdownTooDeep, withinNesting } from "../../lib/markdown-depth.ts";
import { isExternalHref, visitElements } from "./hast-walk.server.ts";

// The Markdown pipeline (unified, remark, rehype: ~10 MiB resident). Nothing a reader's page
// needs at boot imports it: pages show stored HTML, and what renders Markdown loads this module
// on first use through markdown-load.server.ts.

export { isExternalHref, MarkdownTooDeep, visitElements };

/** Prefix of every id that comes from the Markdown (footnotes), so none can clobber the page's. */
const CLOBBER_PREFIX = "user-content-";

/**
 * GitHub's sanitizing schema, tightened: no raw HTML at all (remark-rehype drops
 * it), only http(s)/mailto links and http(s) or site-relative images (a URL
 * without a scheme, such as `/media/x.webp`, is relative and always kept).
 */
export const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  clobberPrefix: CLOBBER_PREFIX,
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto"], src: ["http", "https"] },
};

/** External links open without handing the page to the other site. */
export function externalLinks() {
  return (tree: Root) => {
    visitElements(tree, (element) => {
      const href = element.properties.href;
      if (element.tagName === "a" && typeof href === "string" && isExternalHref(href)) {
        element.properties.rel = ["noopener", "noreferrer"];
      }
    });
  };
}

/** The classes a table cell's GFM alignment (`:---:`, `---:`) becomes (`.markdown .align-*` in app.css). */
export const ALIGN_CLASSES = { left: "align-start", center: "align-center", right: "align-end" } as const;

/**
 * A table column's alignment as a class rather than HTML's obsolete `align` attribute (which
 * remark-rehype writes and the W3C checker flags, issue 49). Runs after sanitizing: the class
 * is ours.
 */
export function tableAlignment() {
  return (tree: Root) => {
    visitElements(tree, (element) => {
      if (element.tagName !== "th" && element.tagName !== "td") return;
      const { align } = element.properties;
      if (align === undefined) return;
      delete element.properties.align;
      const name = typeof align === "string" ? ALIGN_CLASSES[align as keyof typeof ALIGN_CLASSES] : undefined;
      if (!name) return;
      const existing = element.properties.className;
      element.properties.className = [...(Array.isArray(existing) ? existing : []), name];
    });
  };
}

/**
 * remark-rehype options: footnote ids without a prefix of their own, since the
 * sanitizer prefixes every id with `user-content-` (else they get it twice).
 */
export const toHastOptions = { clobberPrefix: "" };

/**
 * The sanitizer prefixed the footnotes' ids with `user-content-`; their links
 * (`#fn-1`, `#fnref-1`) are given the same prefix so they still lead there.
 */
export function footnoteLinks() {
  return (tree: Root) => {
    visitElements(tree, (element) => {
      const { href, dataFootnoteRef, dataFootnoteBackref } = element.properties;
      if (element.tagName !== "a" || typeof href !== "string" || !href.startsWith("#")) return;
      if (dataFootnoteRef === undefined && dataFootnoteBackref === undefined) return;
      element.properties.href = `#${CLOBBER_PREFIX}${href.slice(1)}`;
    });
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype, toHastOptions)
  .use(rehypeSanitize, sanitizeSchema)
  .use(footnoteLinks)
  .use(externalLinks)
  .use(tableAlignment)
  .use(rehypeStringify);

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** Text shown as it was typed, in one paragraph: what over-deep Markdown becomes on a page. */
function asPlainText(markdown: string): string {
  return `<p>${markdown.replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c)}</p>`;
}

/**
 * Markdown to sanitized HTML: no scripts, event handlers, iframes or unsafe URLs.
 * Settings pages are rendered on read: nesting past the limit shows as plain text
 * rather than reaching the parser.
 */
export function renderMarkdown(markdown: string): string {
  if (!withinNesting(markdown)) return asPlainText(markdown);
  return String(processor.processSync(markdown));
}

const cache = new Map<string, string>();

/** renderMarkdown with a small cache, for content rendered on read (site pages). */
export function renderMarkdownCached(markdown: string): string {
  const key = createHash("sha256").update(markdown).digest("base64url");
  let html = cache.get(key);
  if (html === undefined) {
    html = renderMarkdown(markdown);
    if (cache.size >= 200) cache.delete(cache.keys().next().value ?? "");
    cache.set(key, html);
  }
  return html;
}

// ---------------------------------------------------------------------------
// Comments

/**
 * Markdown syntax a comment does not get: headings, images, tables, rules, raw
 * HTML, footnotes and task lists. Switched off in the parser, so what a reader
 * types there stays visible as plain text (`# hi` shows as "# hi").
 */
const COMMENT_DISABLED_CONSTRUCTS = [
  "headingAtx",
  "setextUnderline",
  "thematicBreak",
  "htmlFlow",
  "htmlText",
  "labelStartImage",
  "table",
  "gfmFootnoteDefinition",
  "gfmFootnoteCall",
  "gfmPotentialFootnoteCall",
  "tasklistCheck",
];

/** remark plugin: disables the constructs above (micromark's `disable` extension). */
function commentSyntax(this: Processor) {
  const data = this.data() as { micromarkExtensions?: unknown[] };
  data.micromarkExtensions ??= [];
  data.micromarkExtensions.push({ disable: { null: COMMENT_DISABLED_CONSTRUCTS } });
}

/** The comment subset: paragraphs, emphasis, code, links, lists and quotes; nothing else survives. */
export const commentSchema: SanitizeSchema = {
  strip: ["script", "style"],
  clobberPrefix: CLOBBER_PREFIX,
  clobber: ["id", "name"],
  tagNames: ["p", "br", "em", "strong", "del", "code", "pre", "a", "ul", "ol", "li", "blockquote"],
  attributes: { a: ["href"], ol: ["start"] },
  protocols: { href: ["http", "https", "mailto"] },
  required: {},
  ancestors: { li: ["ol", "ul"] },
};

/** Every link in a comment is the commenter's, not the site's: nofollow, ugc. */
function commentLinks() {
  return (tree: Root) => {
    visitElements(tree, (element) => {
      if (element.tagName === "a" && element.properties.href !== undefined) {
        element.properties.rel = ["nofollow", "ugc", "noopener", "noreferrer"];
      }
    });
  };
}

const commentProcessor = unified()
  .use(remarkParse)
  .use(commentSyntax)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, commentSchema)
  .use(commentLinks)
  .use(rehypeStringify);

function commentTree(markdown: string): Root {
  // submitComment refuses deeper comments first; this never lets one reach the parser.
  if (!withinNesting(markdown)) throw new MarkdownTooDeep();
  return commentProcessor.runSync(commentProcessor.parse(markdown)) as Root;
}

/**
 * A comment's Markdown (the small subset) as sanitized HTML, and how many links that HTML
 * holds (autolinked addresses count, a link whose unsafe target the sanitizer removed does
 * not), from one parse: saving a comment parsed it twice, and parsing is its whole cost.
 */
export function renderCommentParts(markdown: string): { html: string; links: number } {
  const tree = commentTree(markdown);
  let links = 0;
  visitElements(tree, (element) => {
    if (element.tagName === "a" && element.properties.href !== undefined) links += 1;
  });
  return { html: commentProcessor.stringify(tree), links };
}

/** A comment's Markdown to sanitized HTML. */
export function renderComment(markdown: string): string {
  return renderCommentParts(markdown).html;
}

const commentHtmlProcessor = unified().use(rehypeSanitize, commentSchema).use(commentLinks).use(rehypeStringify);

/**
 * HTML written elsewhere (a reply from the Fediverse) through the comment sanitiser: only
 * the comment subset survives (paragraphs, emphasis, code, links, lists, quotes), scripts
 * and styles go with their content, links get nofollow/ugc. The caller limits the size and
 * nesting first (see `tagDepth`).
 */
export function sanitizeCommentHtml(html: string): string {
  const tree = commentHtmlProcessor.runSync(fromHtml(html, { fragment: true })) as Root;
  return commentHtmlProcessor.stringify(tree);
}
