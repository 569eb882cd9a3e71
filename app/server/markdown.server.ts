import { createHash } from "node:crypto";
import type { Element, Root } from "hast";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/**
 * GitHub's sanitizing schema, tightened: no raw HTML at all (remark-rehype drops
 * it), only http(s)/mailto links and http(s) or site-relative images.
 */
const schema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: ["http", "https", "mailto"], src: ["http", "https"] },
};

/** External links open without handing the page to the other site. */
function externalLinks() {
  return (tree: Root) => {
    const visit = (node: Root | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        if (
          child.tagName === "a" &&
          typeof child.properties.href === "string" &&
          /^https?:/i.test(child.properties.href)
        ) {
          child.properties.rel = ["noopener", "noreferrer"];
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(rehypeSanitize, schema)
  .use(externalLinks)
  .use(rehypeStringify);

/** Markdown to sanitized HTML: no scripts, event handlers, iframes or unsafe URLs. */
export function renderMarkdown(markdown: string): string {
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
