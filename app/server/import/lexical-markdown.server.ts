import { escapeLineStart, escapeText, htmlToMarkdown, safeUrl } from "./html-markdown.server.ts";

// Ghost's Lexical documents (the `lexical` column of Ghost 5 and 6 exports) as Markdown
// (docs/decisions/020-importers.md, "Ghost": Lexical). Lexical is a JSON tree: a root whose
// children are blocks (paragraph, heading, quote, list…) holding inline nodes (text with a
// format bit field, links, line breaks), and Ghost's cards (image, code block, HTML, Markdown,
// embed, bookmark, gallery, callout…) as leaf blocks with their own fields. Cards become what
// Markdown can say (an image, a fenced block, a link); HTML inside a card goes through the HTML
// converter, and the render path sanitises the result like any authored body. Node types not
// known here are listed for the report: their text is kept when they have children.

/** Nodes nested deeper than this are kept as their text only. */
export const LEXICAL_MAX_DEPTH = 60;
/** Lists and quotes nested deeper than this become paragraphs (Markdown's own limit is 16 levels). */
export const LEXICAL_MAX_BLOCK_NESTING = 8;

export interface LexicalConversion {
  markdown: string;
  /** Node types not converted (each once): their text is kept when they had children. */
  unknown: string[];
  /** Card types left out on purpose (members sign-up forms, e-mail-only content…), each once. */
  dropped: string[];
  /** HTML kept in the Markdown (from HTML cards the converter could not express), each once. */
  keptAsHtml: string[];
  /** Whether something was nested too deep and was flattened to text. */
  flattened: boolean;
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const childrenOf = (n: Node): Node[] => (Array.isArray(n.children) ? n.children.filter(isNode) : []);
const text = (v: unknown): string => (typeof v === "string" ? v : "");
/** Ghost writes its own variants of the basic nodes (`extended-text`, `extended-heading`…). */
const typeOf = (n: Node): string => text(n.type).replace(/^extended-/, "");

/** Format bits of a Lexical text node. */
const BOLD = 1;
const ITALIC = 2;
const STRIKE = 4;
const CODE = 16;

/** The text of a subtree, read without recursion (a hostile document may nest thousands deep). */
function textOf(node: Node): string {
  let out = "";
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop() as Node;
    if (typeof n.text === "string") out += n.text;
    else if (typeOf(n) === "linebreak") out += " ";
    const kids = childrenOf(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as Node);
  }
  return out;
}

const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

/** Inline code with a fence longer than any run of backticks inside. */
function inlineCode(code: string): string {
  const body = code.replace(/\s+/g, " ");
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = body.startsWith("`") || body.endsWith("`") ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}

function fenced(code: string, language: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language.replace(/[^\w+#.-]/g, "").slice(0, 30)}\n${code.replace(/\n$/, "")}\n${fence}`;
}

const imageMarkdown = (src: unknown, alt: unknown, title?: unknown): string => {
  const url = safeUrl(src);
  if (!url) return "";
  const t = oneLine(text(title)).replace(/"/g, "'");
  return `![${escapeText(oneLine(text(alt)))}](${url}${t ? ` "${t}"` : ""})`;
};

const linkMarkdown = (label: string, href: unknown): string => {
  const url = safeUrl(href);
  if (!url) return escapeText(label);
  return `[${escapeText(label) || url}](${url})`;
};

class Converter {
  unknown = new Set<string>();
  dropped = new Set<string>();
  keptAsHtml = new Set<string>();
  flattened = false;

  /** A small HTML fragment from a card (a caption, a callout's text) as one block of Markdown. */
  html(fragment: unknown): string {
    const out = htmlToMarkdown(text(fragment));
    for (const k of out.keptAsHtml) this.keptAsHtml.add(k);
    if (out.flattened) this.flattened = true;
    return out.markdown.trim();
  }

  caption(fragment: unknown): string {
    const md = oneLine(this.html(fragment).replace(/\\\n/g, " "));
    return md ? `*${md}*` : "";
  }

  inline(nodes: Node[], depth: number): string {
    let out = "";
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i] as Node;
      const type = typeOf(n);
      if (type === "text") {
        // Neighbours with the same format are one run: `**a****b**` would not read as bold.
        const format = typeof n.format === "number" ? n.format : 0;
        let value = text(n.text);
        while (i + 1 < nodes.length) {
          const next = nodes[i + 1] as Node;
          if (typeOf(next) !== "text" || (typeof next.format === "number" ? next.format : 0) !== format) break;
          value += text(next.text);
          i += 1;
        }
        out += this.textRun(value, format);
      } else out += this.inlineNode(n, depth);
    }
    return out;
  }

  private textRun(value: string, format: number): string {
    if (value === "") return "";
    if (format & CODE) return inlineCode(value);
    let s = escapeText(value.replace(/[ \t]+/g, " "));
    const m = /^(\s*)(.*?)(\s*)$/s.exec(s);
    if (!m?.[2]) return s;
    let core = m[2];
    if (format & STRIKE) core = `~~${core}~~`;
    if (format & ITALIC) core = `*${core}*`;
    if (format & BOLD) core = `**${core}**`;
    s = `${m[1]}${core}${m[3]}`;
    return s;
  }

  private inlineNode(n: Node, depth: number): string {
    if (depth > LEXICAL_MAX_DEPTH) {
      this.flattened = true;
      return escapeText(oneLine(textOf(n)));
    }
    const type = typeOf(n);
    switch (type) {
      case "linebreak":
        return "\\\n";
      case "tab":
        return " ";
      case "link":
      case "autolink": {
        const inner = this.inline(childrenOf(n), depth + 1);
        const url = safeUrl(n.url);
        if (!url) return inner;
        return `[${inner || escapeText(url)}](${url})`;
      }
      case "hashtag":
        return escapeText(text(n.text));
      case "image":
        return imageMarkdown(n.src, n.alt, n.title);
      default: {
        this.unknown.add(type || "(no type)");
        return childrenOf(n).length > 0 ? this.inline(childrenOf(n), depth + 1) : escapeText(text(n.text));
      }
    }
  }

  /** Inline content as a paragraph: no line may start a block by accident. */
  private paragraph(nodes: Node[], depth: number): string {
    return this.inline(nodes, depth + 1)
      .trim()
      .split("\n")
      .map(escapeLineStart)
      .join("\n");
  }

  blocks(nodes: Node[], depth: number, nesting: number): string[] {
    const out: string[] = [];
    for (const n of nodes) {
      const b = this.block(n, depth, nesting);
      if (b.trim()) out.push(b);
    }
    return out;
  }

  private block(n: Node, depth: number, nesting: number): string {
    if (depth > LEXICAL_MAX_DEPTH) {
      this.flattened = true;
      return escapeText(oneLine(textOf(n)));
    }
    const type = typeOf(n);
    switch (type) {
      case "paragraph":
        return this.paragraph(childrenOf(n), depth);
      case "heading": {
        const level = Number(/^h([1-6])$/.exec(text(n.tag))?.[1] ?? 2);
        return `${"#".repeat(level)} ${oneLine(this.inline(childrenOf(n), depth + 1).replace(/\\\n/g, " "))}`;
      }
      case "quote":
      case "aside":
        return this.quote(this.paragraph(childrenOf(n), depth), nesting);
      case "list":
        return this.list(n, depth, nesting);
      case "horizontalrule":
        return "---";
      case "codeblock":
        return [fenced(text(n.code), text(n.language)), this.caption(n.caption)].filter(Boolean).join("\n\n");
      case "image": {
        const img = imageMarkdown(n.src, n.alt, n.title);
        const linked = img && safeUrl(n.href) ? `[${img}](${safeUrl(n.href)})` : img;
        return [linked, this.caption(n.caption)].filter(Boolean).join("\n\n");
      }
      case "gallery": {
        const images = Array.isArray(n.images) ? n.images.filter(isNode) : [];
        const lines = images.map((i) => imageMarkdown(i.src, i.alt, i.title)).filter(Boolean);
        return [lines.join("\n"), this.caption(n.caption)].filter(Boolean).join("\n\n");
      }
      case "markdown":
        // Written in Markdown already; the render path sanitises it like the editor's.
        return text(n.markdown).trim();
      case "html":
        return this.html(n.html);
      case "embed":
      case "bookmark": {
        const meta = isNode(n.metadata) ? n.metadata : {};
        const label = oneLine(text(meta.title) || text(n.url));
        return [linkMarkdown(label, n.url), this.caption(n.caption)].filter(Boolean).join("\n\n");
      }
      case "video":
      case "audio":
      case "file": {
        const label = oneLine(text(n.title) || text(n.fileName) || text(n.src));
        return [linkMarkdown(label, n.src), this.caption(n.caption)].filter(Boolean).join("\n\n");
      }
      case "button":
        return linkMarkdown(oneLine(text(n.buttonText)), n.buttonUrl);
      case "callout": {
        const emoji = oneLine(text(n.calloutEmoji));
        const body = this.html(n.calloutText);
        return this.quote([emoji, body].filter(Boolean).join(" "), nesting);
      }
      case "toggle": {
        const heading = oneLine(this.html(n.heading).replace(/\\\n/g, " "));
        return [heading ? `**${heading}**` : "", this.html(n.content)].filter(Boolean).join("\n\n");
      }
      case "header": {
        const parts = [
          oneLine(this.html(n.header)) ? `## ${oneLine(this.html(n.header).replace(/\\\n/g, " "))}` : "",
          this.html(n.subheader),
          n.buttonEnabled === false ? "" : linkMarkdown(oneLine(text(n.buttonText)), n.buttonUrl),
        ];
        return parts.filter(Boolean).join("\n\n");
      }
      case "product": {
        const parts = [
          oneLine(this.html(n.productTitle)) ? `### ${oneLine(this.html(n.productTitle).replace(/\\\n/g, " "))}` : "",
          imageMarkdown(n.productImageSrc, ""),
          this.html(n.productDescription),
          n.productButtonEnabled ? linkMarkdown(oneLine(text(n.productButton)), n.productUrl) : "",
        ];
        return parts.filter(Boolean).join("\n\n");
      }
      case "signup":
      case "paywall":
      case "email":
      case "email-cta":
      case "call-to-action":
        // Members forms, the paywall marker and e-mail-only content have nothing to show here.
        this.dropped.add(type);
        return "";
      default: {
        this.unknown.add(type || "(no type)");
        const kids = childrenOf(n);
        if (kids.length > 0) {
          // A block of blocks, or a block of inline nodes.
          const blockish = kids.some((k) => ["paragraph", "heading", "list", "quote"].includes(typeOf(k)));
          return blockish ? this.blocks(kids, depth + 1, nesting).join("\n\n") : this.paragraph(kids, depth);
        }
        return escapeText(oneLine(text(n.text)));
      }
    }
  }

  private quote(body: string, nesting: number): string {
    if (!body) return "";
    if (nesting >= LEXICAL_MAX_BLOCK_NESTING) {
      this.flattened = true;
      return body;
    }
    return body
      .split("\n")
      .map((l) => (l ? `> ${l}` : ">"))
      .join("\n");
  }

  private list(n: Node, depth: number, nesting: number): string {
    const kind = text(n.listType);
    const ordered = kind === "number" || text(n.tag) === "ol";
    const start = typeof n.start === "number" && Number.isInteger(n.start) && n.start >= 0 ? n.start : 1;
    const tooDeep = nesting >= LEXICAL_MAX_BLOCK_NESTING;
    if (tooDeep) this.flattened = true;
    let number = start;
    const items: string[] = [];
    for (const item of childrenOf(n)) {
      if (depth + 1 > LEXICAL_MAX_DEPTH) {
        this.flattened = true;
        items.push(escapeText(oneLine(textOf(item))));
        continue;
      }
      // A list item holds inline nodes and, for a sub-list, a list node.
      const kids = typeOf(item) === "listitem" ? childrenOf(item) : [item];
      const inlineKids = kids.filter((k) => typeOf(k) !== "list");
      const nested = kids.filter((k) => typeOf(k) === "list");
      const own = this.inline(inlineKids, depth + 2)
        .trim()
        .split("\n")
        .map(escapeLineStart)
        .join("\n");
      const sub = nested.map((l) => this.list(l, depth + 2, nesting + 1)).filter(Boolean);
      if (tooDeep) {
        items.push([own, ...sub].filter(Boolean).join("\n\n"));
        continue;
      }
      if (!own && sub.length > 0 && items.length > 0) {
        // Lexical puts a sub-list in an item of its own: it belongs under the item before.
        const pad = " ".repeat(ordered ? `${number - 1}. `.length : 2);
        items[items.length - 1] += `\n${sub
          .join("\n")
          .split("\n")
          .map((l) => (l ? pad + l : l))
          .join("\n")}`;
        continue;
      }
      let marker = ordered ? `${number++}. ` : "- ";
      if (kind === "check") marker += item.checked === true ? "[x] " : "[ ] ";
      const pad = " ".repeat(ordered ? marker.length : 2);
      const body = [own, ...sub].filter(Boolean).join("\n");
      items.push(
        marker +
          body
            .split("\n")
            .map((l, i) => (i === 0 || l === "" ? l : pad + l))
            .join("\n"),
      );
    }
    return items.join(tooDeep ? "\n\n" : "\n");
  }
}

/** The largest Lexical document read (its JSON text). */
export const LEXICAL_MAX_CHARS = 4_000_000;

/**
 * Converts a Lexical document (its JSON text, or the parsed object) to Markdown. Never throws:
 * an unreadable document gives null, and the caller reports it.
 */
export function lexicalToMarkdown(source: unknown): LexicalConversion | null {
  let doc: unknown = source;
  if (typeof source === "string") {
    if (source.length > LEXICAL_MAX_CHARS) return null;
    try {
      doc = JSON.parse(source);
    } catch {
      return null;
    }
  }
  if (!isNode(doc)) return null;
  const root = isNode(doc.root) ? doc.root : doc;
  const c = new Converter();
  const markdown = c
    .blocks(childrenOf(root), 0, 0)
    .join("\n\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return {
    markdown: markdown ? `${markdown}\n` : "",
    unknown: [...c.unknown],
    dropped: [...c.dropped],
    keptAsHtml: [...c.keptAsHtml],
    flattened: c.flattened,
  };
}
