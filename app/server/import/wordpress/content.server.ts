import { htmlToMarkdown } from "../html-markdown.server.ts";

// A WordPress post's HTML as Markdown: Gutenberg's block comments, `<!--more-->`, the shortcodes
// an import understands, automatic paragraphs; then the shared HTML converter.

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** HTML as plain text (summaries): tags dropped, common entities decoded, white space collapsed. */
export function plainText(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<\/?(p|div|br|hr|h[1-6]|li|ul|ol|blockquote|figure|figcaption|pre|tr|td|th|table)\b[^>]*>/gi, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code = e[1] === "x" || e[1] === "X" ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
        return Number.isInteger(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : " ";
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, " ")
    .trim();
}

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const escapeAttr = (s: string) => escapeHtml(s).replace(/"/g, "&quot;");

/** A shortcode's attributes: `a="x" b='y' c=z`. */
function shortcodeAttrs(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of raw.matchAll(/([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g))
    if (m[1]) out[m[1].toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? "";
  return out;
}

const BLOCK_START =
  /^<\/?(p|div|h[1-6]|ul|ol|li|blockquote|pre|figure|table|thead|tbody|tr|td|th|hr|dl|dt|dd|section|article|aside|header|footer|nav|form|fieldset|address|details|summary|iframe|video|audio|object|embed|script|style)\b/i;

/**
 * WordPress's automatic paragraphs, as much as an import needs: text separated by blank lines
 * becomes paragraphs and single line breaks `<br>`, unless the piece already starts with a block.
 */
export function autoParagraphs(html: string): string {
  return html
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => (BLOCK_START.test(piece) ? piece : `<p>${piece.replace(/\n/g, "<br>")}</p>`))
    .join("\n\n");
}

export interface Attachment {
  url: string;
  alt: string;
  parent: string;
}

export interface ConvertedContent {
  markdown: string;
  /** The text before `<!--more-->`, plain (null without the marker). */
  teaser: string | null;
  /** Names of shortcodes left as text. */
  shortcodesKept: string[];
  keptAsHtml: string[];
  flattened: boolean;
  galleriesEmpty: number;
}

/**
 * A post's `content:encoded` as Markdown: Gutenberg block comments stripped, `<!--more-->`
 * found (its teaser kept for the summary) and removed, `[code]`/`[sourcecode]`, `[caption]` and
 * `[gallery]` converted, other shortcodes left as text (and listed), automatic paragraphs made,
 * then the shared HTML converter (which drops script-like links, scripts and styles).
 */
export function convertContent(
  raw: string,
  ctx: { postId: string; attachments: Map<string, Attachment> },
): ConvertedContent {
  // U+E000 marks blocks kept aside below: never taken from the content.
  let html = raw
    .replace(/\uE000/g, "")
    .replace(/<!--\s*\/?wp:[\s\S]*?-->/g, "")
    .replace(/<!--nextpage-->/g, "");
  let teaser: string | null = null;
  const more = /<!--more(?:\s[^>]*?)?-->/.exec(html);
  if (more) {
    teaser = plainText(html.slice(0, more.index));
    html = html.replace(/<!--more(?:\s[^>]*?)?-->/g, "");
  }
  // Code first, kept aside so nothing below (paragraphs, other shortcodes) touches it.
  const kept: string[] = [];
  const keep = (block: string) => `\n\n\uE000${kept.push(block) - 1}\uE000\n\n`;
  html = html.replace(
    /\[(code|sourcecode)((?:\s[^\]]*)?)\]([\s\S]*?)\[\/\1\]/gi,
    (_m, _n, attrs: string, code: string) => {
      const a = shortcodeAttrs(attrs);
      const lang = (a.lang ?? a.language ?? "").replace(/[^\w+#.-]/g, "");
      const cls = lang ? ` class="language-${lang}"` : "";
      return keep(`<pre><code${cls}>${escapeHtml(code.replace(/^\n/, ""))}</code></pre>`);
    },
  );
  html = html.replace(/<pre\b[\s\S]*?<\/pre>/gi, (block) => keep(block));
  html = html.replace(/\[caption((?:\s[^\]]*)?)\]([\s\S]*?)\[\/caption\]/gi, (_m, attrs: string, inner: string) => {
    const media = /^\s*(?:<a\b[^>]*>\s*)?<img\b[^>]*>(?:\s*<\/a>)?/i.exec(inner);
    const image = media?.[0]?.trim() ?? "";
    const caption = (media ? inner.slice(media[0].length) : inner).trim() || shortcodeAttrs(attrs).caption || "";
    return `\n\n<figure>${image}${caption ? `<figcaption>${caption}</figcaption>` : ""}</figure>\n\n`;
  });
  let galleriesEmpty = 0;
  html = html.replace(/\[gallery((?:\s[^\]]*)?)\]/gi, (_m, attrs: string) => {
    const a = shortcodeAttrs(attrs);
    const ids = (a.ids ?? a.include ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const pictures = ids.length
      ? ids.map((id) => ctx.attachments.get(id)).filter((x): x is Attachment => !!x)
      : [...ctx.attachments.values()].filter((x) => x.parent === ctx.postId);
    if (pictures.length === 0) {
      galleriesEmpty += 1;
      return "";
    }
    return `\n\n<p>${pictures.map((p) => `<img src="${escapeAttr(p.url)}" alt="${escapeAttr(p.alt)}">`).join("\n")}</p>\n\n`;
  });
  const shortcodes = new Set<string>();
  for (const m of html.matchAll(/\[\/?([a-z][\w-]*)((?:\s[^\]\n]*)?)\]/gi)) {
    const attrs = m[2] ?? "";
    const closing = m[0].startsWith("[/");
    if (m[1] && (closing || attrs.trim() === "" || attrs.includes("="))) shortcodes.add(m[1].toLowerCase());
  }
  html = autoParagraphs(html).replace(/\uE000(\d+)\uE000/g, (_m, i: string) => kept[Number(i)] ?? "");
  const converted = htmlToMarkdown(html);
  return {
    markdown: converted.markdown,
    teaser,
    shortcodesKept: [...shortcodes],
    keptAsHtml: converted.keptAsHtml,
    flattened: converted.flattened,
    galleriesEmpty,
  };
}
