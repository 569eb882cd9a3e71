import type { Element, ElementContent, Root, RootContent } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toHtml } from "hast-util-to-html";

// A small HTML → Markdown converter for imported bodies (Ghost's `html`; decision 020). It
// knows the elements an editor writes: headings, paragraphs, emphasis, links, images, lists,
// blockquotes, code blocks, rules, figures with captions. Anything else (Ghost cards such as
// bookmarks, embeds, galleries, tables) is kept as HTML in the Markdown and listed: the
// render path sanitises it like any authored HTML. Links and images with a script-like
// scheme lose their target here already.

/** Elements nested deeper than this are kept as their text only. */
export const HTML_MAX_DEPTH = 60;

export interface HtmlConversion {
  markdown: string;
  /** Elements kept as HTML (a Ghost card's class, or the tag name), each once. */
  keptAsHtml: string[];
  /** Whether something was nested too deep and was flattened to text. */
  flattened: boolean;
}

const SAFE_URL = /^(https?:|mailto:|\/|#|\.{0,2}\/|[^:]*$)/i;

/** A link or image target, or null when its scheme is not one a post may point to (`javascript:`, `data:`…). */
export function safeUrl(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  // Browsers ignore control characters and spaces inside a scheme (`java\tscript:`).
  const url = raw.trim();
  const squeezed = [...url].filter((ch) => ch.charCodeAt(0) > 0x20).join("");
  if (url === "" || !SAFE_URL.test(squeezed)) return null;
  return url.replace(/\s/g, "%20").replace(/\(/g, "%28").replace(/\)/g, "%29");
}

export const escapeText = (s: string): string => s.replace(/([\\`*_[\]<>|~])/g, "\\$1");

/** Characters that would start a block at the beginning of a line. */
export const escapeLineStart = (line: string): string =>
  line.replace(/^(\s*)([#>+-]|=+|\d+[.)])(?=\s|$)/, (_m, sp: string, mark: string) =>
    /^\d/.test(mark) ? `${sp}${mark.replace(/([.)])$/, "\\$1")}` : `${sp}\\${mark}`,
  );

const classes = (el: Element): string[] => {
  const c: unknown = el.properties.className;
  if (Array.isArray(c)) return c.map(String);
  return typeof c === "string" ? c.split(/\s+/) : [];
};

/** A Ghost card's own class (`kg-bookmark-card`), not the shared `kg-card`. */
const cardClass = (el: Element): string | null =>
  classes(el).find((c) => c !== "kg-card" && c.startsWith("kg-") && c.endsWith("-card")) ?? null;

const attr = (el: Element, name: string): string | null => {
  const v = el.properties[name];
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : null;
};

type AnyNode = RootContent | ElementContent | Root;

/** The text of a subtree, read without recursion (a hostile body may nest thousands deep). */
const textOf = (node: AnyNode): string => {
  let out = "";
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as AnyNode;
    if (n.type === "text") out += n.value;
    else if ("children" in n) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as AnyNode);
  }
  return out;
};

/** Whether a subtree nests deeper than `max` elements (without recursion). */
const deeperThan = (node: AnyNode, max: number): boolean => {
  const stack: [AnyNode, number][] = [[node, 0]];
  while (stack.length > 0) {
    const [n, d] = stack.pop() as [AnyNode, number];
    if (d > max) return true;
    if ("children" in n) for (const c of n.children) stack.push([c as AnyNode, d + 1]);
  }
  return false;
};

const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const BLOCKS = new Set([
  "p",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "blockquote",
  "pre",
  "hr",
  "figure",
  "div",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "aside",
  "table",
  "iframe",
  "video",
  "audio",
  "details",
  "form",
]);
/** Elements dropped with their content. */
const DROPPED = new Set(["script", "style", "noscript", "template", "head", "meta", "link", "object", "embed"]);
/** Wrappers whose content is simply read on. */
const TRANSPARENT = new Set(["div", "section", "article", "header", "footer", "main", "span", "body", "html"]);

class Converter {
  keptAsHtml = new Set<string>();
  flattened = false;

  inline(nodes: readonly ElementContent[], depth: number): string {
    return nodes.map((n) => this.inlineNode(n, depth)).join("");
  }

  private inlineNode(node: ElementContent, depth: number): string {
    if (node.type === "text") return escapeText(node.value.replace(/\s+/g, " "));
    if (node.type !== "element") return "";
    if (depth > HTML_MAX_DEPTH) {
      this.flattened = true;
      return escapeText(textOf(node).replace(/\s+/g, " "));
    }
    const tag = node.tagName;
    if (DROPPED.has(tag)) return "";
    const inner = () => this.inline(node.children, depth + 1);
    const wrap = (mark: string) => {
      const text = inner();
      const m = /^(\s*)(.*?)(\s*)$/s.exec(text);
      return m?.[2] ? `${m[1]}${mark}${m[2]}${mark}${m[3]}` : text;
    };
    switch (tag) {
      case "strong":
      case "b":
        return wrap("**");
      case "em":
      case "i":
      case "cite":
        return wrap("*");
      case "s":
      case "del":
      case "strike":
        return wrap("~~");
      case "code": {
        const code = textOf(node).replace(/\s+/g, " ");
        const fence = code.includes("`") ? "`` " : "`";
        return `${fence}${code}${fence === "`" ? "`" : " ``"}`;
      }
      case "br":
        return "\\\n";
      case "a": {
        const text = inner();
        const href = safeUrl(attr(node, "href"));
        if (!href) return text;
        const title = attr(node, "title");
        return `[${text || href}](${href}${title ? ` "${title.replace(/"/g, "'")}"` : ""})`;
      }
      case "img":
        return this.image(node);
      default:
        if (BLOCKS.has(tag) && !TRANSPARENT.has(tag)) return this.keep(node);
        return inner();
    }
  }

  private image(node: Element): string {
    const src = safeUrl(attr(node, "src"));
    if (!src) return "";
    const alt = escapeText((attr(node, "alt") ?? "").replace(/\s+/g, " "));
    const title = attr(node, "title");
    return `![${alt}](${src}${title ? ` "${title.replace(/"/g, "'")}"` : ""})`;
  }

  private keep(node: Element): string {
    if (deeperThan(node, HTML_MAX_DEPTH)) {
      this.flattened = true;
      return escapeText(textOf(node).replace(/\s+/g, " ").trim());
    }
    const cls = cardClass(node) ?? node.tagName;
    this.keptAsHtml.add(cls);
    return toHtml(node);
  }

  blocks(nodes: readonly RootContent[], depth: number): string[] {
    const out: string[] = [];
    let run: ElementContent[] = [];
    const flush = () => {
      const text = this.inline(run, depth).trim();
      if (text) out.push(text.split("\n").map(escapeLineStart).join("\n"));
      run = [];
    };
    for (const node of nodes) {
      if (node.type === "element" && (BLOCKS.has(node.tagName) || node.tagName === "li")) {
        flush();
        const b = this.block(node, depth);
        if (b.trim()) out.push(b);
      } else if (node.type === "text" || node.type === "element") {
        run.push(node);
      }
    }
    flush();
    return out;
  }

  private block(node: Element, depth: number): string {
    if (depth > HTML_MAX_DEPTH) {
      this.flattened = true;
      return escapeText(textOf(node).replace(/\s+/g, " ").trim());
    }
    const tag = node.tagName;
    const level = HEADINGS[tag];
    if (level)
      return `${"#".repeat(level)} ${this.inline(node.children, depth + 1)
        .replace(/\\\n/g, " ")
        .trim()}`;
    switch (tag) {
      case "p":
        return this.inline(node.children, depth + 1)
          .trim()
          .split("\n")
          .map(escapeLineStart)
          .join("\n");
      case "hr":
        return "---";
      case "pre":
        return this.code(node);
      case "blockquote":
        return this.blocks(node.children, depth + 1)
          .join("\n\n")
          .split("\n")
          .map((l) => (l ? `> ${l}` : ">"))
          .join("\n");
      case "ul":
      case "ol":
        return this.list(node, depth);
      case "figure":
        return this.figure(node, depth);
      default:
        if (TRANSPARENT.has(tag) && !cardClass(node)) return this.blocks(node.children, depth + 1).join("\n\n");
        return this.keep(node);
    }
  }

  private code(node: Element): string {
    const code = node.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
    const lang = code
      ? (classes(code)
          .find((c) => /^lang(uage)?-/.test(c))
          ?.replace(/^lang(uage)?-/, "") ?? "")
      : "";
    const text = textOf(code ?? node).replace(/\n$/, "");
    const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
    const fence = "`".repeat(longest + 1);
    return `${fence}${lang.replace(/[^\w+#.-]/g, "")}\n${text}\n${fence}`;
  }

  private list(node: Element, depth: number): string {
    const ordered = node.tagName === "ol";
    const start = Number(attr(node, "start") ?? 1) || 1;
    let n = start;
    const items: string[] = [];
    for (const child of node.children) {
      if (child.type !== "element" || child.tagName !== "li") continue;
      const marker = ordered ? `${n++}. ` : "- ";
      // A tight item (no paragraphs) keeps its nested list on the next line.
      const loose = child.children.some((c) => c.type === "element" && c.tagName === "p");
      const body = this.blocks(child.children, depth + 1).join(loose ? "\n\n" : "\n");
      const pad = " ".repeat(marker.length);
      items.push(
        marker +
          body
            .split("\n")
            .map((l, i) => (i === 0 || l === "" ? l : pad + l))
            .join("\n"),
      );
    }
    return items.join("\n");
  }

  private figure(node: Element, depth: number): string {
    const card = cardClass(node);
    if (card && card !== "kg-image-card" && card !== "kg-code-card") return this.keep(node);
    const caption = node.children.find((c): c is Element => c.type === "element" && c.tagName === "figcaption");
    const rest = node.children.filter((c) => c !== caption);
    const parts = this.blocks(rest, depth + 1);
    if (caption) {
      const text = this.inline(caption.children, depth + 1).trim();
      if (text) parts.push(`*${text.replace(/\\\n/g, " ")}*`);
    }
    return parts.join("\n\n");
  }
}

/** Markup nested deeper than this (by a quick count of tags) is not parsed: the parser's tree builder recurses. */
export const HTML_PARSE_MAX_DEPTH = 1000;
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/** The deepest nesting of tags, counted without parsing (an over-estimate for HTML that leaves tags open). */
export function tagDepth(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    const name = (m[2] ?? "").toLowerCase();
    if (m[1]) depth = Math.max(0, depth - 1);
    else if (!m[3] && !VOID.has(name)) max = Math.max(max, ++depth);
  }
  return max;
}

/** Converts an HTML fragment to Markdown. Never throws on odd input; hostile parts are dropped or kept for sanitising. */
export function htmlToMarkdown(html: string): HtmlConversion {
  if (tagDepth(html) > HTML_PARSE_MAX_DEPTH) {
    const text = html
      .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, " ")
      .replace(/<[^>]*>?/g, " ")
      .replace(/\s+/g, " ")
      .trim();
    return { markdown: text ? `${escapeText(text)}\n` : "", keptAsHtml: [], flattened: true };
  }
  const tree = fromHtml(html, { fragment: true });
  const c = new Converter();
  const markdown = c
    .blocks(tree.children, 0)
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { markdown: markdown ? `${markdown}\n` : "", keptAsHtml: [...c.keptAsHtml], flattened: c.flattened };
}
