import type { Element, ElementContent, Root, RootContent, Text } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toHtml } from "hast-util-to-html";

// A post's stored HTML made fit for a mail: every style inline (mail clients drop
// most <style> rules), every link and image absolute, code readable without the
// site's CSS, and a plain-text twin for clients that show no HTML.

/** Where the reader's own links go; filled per recipient when the mail goes out. */
export const PLACEHOLDER = {
  unsubscribe: "%%UNSUBSCRIBE_URL%%",
  preferences: "%%PREFERENCES_URL%%",
} as const;

const FONT =
  "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'PingFang SC','Hiragino Sans GB','Microsoft YaHei','Noto Sans CJK SC',sans-serif";
const MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'Liberation Mono',monospace";
const TEXT = "#18181b";
const MUTED = "#52525b";
const LINK = "#1d4ed8";
const RULE = "#e4e4e7";
const CODE_BG = "#f4f4f5";

/** Inline styles per element; explicit colours everywhere, so a client's dark mode inverts a whole, consistent page. */
const STYLES: Record<string, string> = {
  p: `margin:0 0 16px;color:${TEXT}`,
  h1: `margin:32px 0 12px;font-size:28px;line-height:1.25;font-weight:700;color:${TEXT}`,
  h2: `margin:28px 0 12px;font-size:22px;line-height:1.3;font-weight:700;color:${TEXT}`,
  h3: `margin:24px 0 8px;font-size:19px;line-height:1.35;font-weight:700;color:${TEXT}`,
  h4: `margin:20px 0 8px;font-size:17px;font-weight:700;color:${TEXT}`,
  h5: `margin:16px 0 8px;font-size:16px;font-weight:700;color:${TEXT}`,
  h6: `margin:16px 0 8px;font-size:15px;font-weight:700;color:${MUTED}`,
  a: `color:${LINK};text-decoration:underline`,
  ul: `margin:0 0 16px;padding-left:24px;color:${TEXT}`,
  ol: `margin:0 0 16px;padding-left:24px;color:${TEXT}`,
  li: "margin:0 0 6px",
  blockquote: `margin:0 0 16px;padding:4px 16px;border-left:4px solid ${RULE};color:${MUTED}`,
  pre: `margin:0 0 16px;padding:12px 14px;background:${CODE_BG};color:${TEXT};border:1px solid ${RULE};border-radius:6px;font-family:${MONO};font-size:13px;line-height:1.5;white-space:pre-wrap;word-break:break-word;overflow-x:auto`,
  code: `font-family:${MONO};font-size:0.9em;background:${CODE_BG};color:${TEXT};padding:1px 4px;border-radius:4px`,
  img: "max-width:100%;height:auto;border:0;display:block;margin:0 auto",
  table: `border-collapse:collapse;margin:0 0 16px;width:100%;font-size:15px;color:${TEXT}`,
  th: `border:1px solid ${RULE};padding:6px 10px;text-align:left;background:${CODE_BG};font-weight:700`,
  td: `border:1px solid ${RULE};padding:6px 10px;vertical-align:top`,
  hr: `border:0;border-top:1px solid ${RULE};margin:24px 0`,
  figure: "margin:0 0 16px",
  figcaption: `font-size:14px;color:${MUTED};text-align:center;margin-top:6px`,
  sup: "font-size:0.75em;line-height:0",
  section: `margin-top:24px;border-top:1px solid ${RULE};padding-top:8px;font-size:14px;color:${MUTED}`,
};

/** Widest image variant a mail asks for: two pixels per CSS pixel of the 600 px column. */
const MAIL_IMAGE_WIDTH = 1200;

/** The srcset candidate to put in `src`: the widest up to 1200w, else the narrowest. */
export function pickVariant(srcSet: string): string | null {
  const candidates = srcSet
    .split(",")
    .map((part) => part.trim().split(/\s+/))
    .flatMap(([url, size]) => {
      const width = size?.endsWith("w") ? Number.parseInt(size, 10) : Number.NaN;
      return url && Number.isFinite(width) ? [{ url, width }] : [];
    })
    .sort((a, b) => a.width - b.width);
  if (candidates.length === 0) return null;
  const fit = candidates.filter((c) => c.width <= MAIL_IMAGE_WIDTH);
  return (fit.at(-1) ?? candidates[0])?.url ?? null;
}

/** An absolute URL for a site-relative one; `#…` and other schemes as they are; protocol-relative gets https. */
export function absoluteUrl(url: string, publicUrl: string): string {
  if (url.startsWith("//")) return `https:${url}`;
  if (url.startsWith("/")) return `${publicUrl}${url}`;
  return url;
}

function isElement(node: RootContent | ElementContent): node is Element {
  return node.type === "element";
}

/** `--shiki-light:#D73A49;--shiki-dark:…` → `#D73A49` (the light theme's colour). */
function shikiLightColour(style: unknown): string | null {
  if (typeof style !== "string") return null;
  const match = /--shiki-light:\s*(#[0-9a-fA-F]{3,8})/.exec(style);
  return match?.[1] ?? null;
}

function transform(children: Array<RootContent | ElementContent>, publicUrl: string, inPre: boolean): ElementContent[] {
  const out: ElementContent[] = [];
  for (const node of children) {
    if (node.type === "comment" || node.type === "doctype") continue;
    if (!isElement(node)) {
      out.push(node as ElementContent);
      continue;
    }
    const tag = node.tagName;
    // Interactive bits a mail cannot use.
    if (tag === "button" || tag === "script" || tag === "style" || tag === "iframe" || tag === "form") continue;
    if (tag === "input") {
      // A task list's checkbox becomes a glyph.
      out.push({ type: "text", value: node.properties.checked ? "☑ " : "☐ " });
      continue;
    }
    const props = node.properties;
    const keep: Element["properties"] = {};
    if (tag === "a" && typeof props.href === "string") {
      // In-page links (footnotes, headings) lead nowhere in a mail: keep the text only.
      if (props.href.startsWith("#")) {
        out.push(...transform(node.children, publicUrl, inPre));
        continue;
      }
      keep.href = absoluteUrl(props.href, publicUrl);
    }
    if (tag === "img") {
      const variant = typeof props.srcSet === "string" ? pickVariant(props.srcSet) : null;
      const src = variant ?? (typeof props.src === "string" ? props.src : "");
      if (!src) continue;
      keep.src = absoluteUrl(src, publicUrl);
      keep.alt = typeof props.alt === "string" ? props.alt : "";
      if (typeof props.title === "string") keep.title = props.title;
      keep.width = "600";
    }
    if ((tag === "td" || tag === "th") && props.align) keep.align = props.align;
    if (tag === "ol" && props.start) keep.start = props.start;
    if (tag === "pre" && typeof props.dataLanguage === "string") keep.dataLanguage = props.dataLanguage;
    if (inPre && tag === "span") {
      const colour = shikiLightColour(props.style);
      if (colour) keep.style = `color:${colour}`;
    } else if (inPre && tag === "code") {
      // Inside a block the <pre> carries the box.
    } else if (tag === "h2" && Array.isArray(props.className) && props.className.includes("sr-only")) {
      continue; // the footnotes' screen-reader heading
    } else {
      const style = STYLES[tag];
      if (style) keep.style = style;
    }
    out.push({
      type: "element",
      tagName: tag,
      properties: keep,
      children: transform(node.children, publicUrl, inPre || tag === "pre"),
    });
  }
  return out;
}

/** The post body as mail HTML: inline styles, absolute URLs, plain code blocks. */
export function mailBodyHtml(bodyHtml: string, publicUrl: string): string {
  const tree = fromHtml(bodyHtml, { fragment: true });
  const root: Root = { type: "root", children: transform(tree.children, publicUrl, false) };
  return toHtml(root);
}

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
  "table",
  "hr",
  "figure",
  "section",
  "div",
]);

function textOf(node: RootContent | ElementContent): string {
  if (node.type === "text") return (node as Text).value;
  if (isElement(node)) return node.children.map(textOf).join("");
  return "";
}

function inlineText(children: Array<RootContent | ElementContent>, publicUrl: string): string {
  let out = "";
  for (const node of children) {
    if (node.type === "text") out += node.value.replace(/\s+/g, " ");
    else if (isElement(node)) {
      if (node.tagName === "br") out += "\n";
      else if (node.tagName === "img") {
        const alt = typeof node.properties.alt === "string" ? node.properties.alt : "";
        out += alt ? `[${alt}]` : "";
      } else if (node.tagName === "input") out += node.properties.checked ? "[x] " : "[ ] ";
      else if (node.tagName === "button") continue;
      else if (
        node.tagName === "a" &&
        typeof node.properties.href === "string" &&
        !node.properties.href.startsWith("#")
      ) {
        const label = inlineText(node.children, publicUrl).trim();
        const href = absoluteUrl(node.properties.href, publicUrl);
        out += label && label !== href ? `${label} (${href})` : href;
      } else out += inlineText(node.children, publicUrl);
    }
  }
  return out;
}

function blocksText(children: Array<RootContent | ElementContent>, publicUrl: string, indent = ""): string[] {
  const blocks: string[] = [];
  let inline: Array<RootContent | ElementContent> = [];
  const flush = () => {
    const text = inlineText(inline, publicUrl).trim();
    if (text) blocks.push(indent + text.replace(/\n/g, `\n${indent}`));
    inline = [];
  };
  for (const node of children) {
    if (!isElement(node) || (!BLOCKS.has(node.tagName) && node.tagName !== "li")) {
      inline.push(node);
      continue;
    }
    flush();
    const tag = node.tagName;
    if (/^h[1-6]$/.test(tag)) {
      if (Array.isArray(node.properties.className) && node.properties.className.includes("sr-only")) continue;
      const title = inlineText(node.children, publicUrl).trim();
      blocks.push(
        `${indent}${title}\n${indent}${(tag === "h2" ? "=" : "-").repeat(Math.min(60, [...title].length * 2))}`,
      );
    } else if (tag === "pre") {
      blocks.push(
        textOf(node)
          .replace(/\n$/, "")
          .split("\n")
          .map((line) => `${indent}    ${line}`)
          .join("\n"),
      );
    } else if (tag === "ul" || tag === "ol") {
      let n = Number(node.properties.start ?? 1);
      const items = node.children.filter(isElement).map((li) => {
        const marker = tag === "ol" ? `${n++}. ` : "- ";
        const inner = blocksText(li.children, publicUrl, "").join("\n");
        return `${indent}${marker}${inner.replace(/\n/g, `\n${indent}${" ".repeat(marker.length)}`)}`;
      });
      blocks.push(items.join("\n"));
    } else if (tag === "blockquote") {
      blocks.push(
        blocksText(node.children, publicUrl, "")
          .join("\n\n")
          .split("\n")
          .map((line) => `${indent}> ${line}`)
          .join("\n"),
      );
    } else if (tag === "table") {
      const rows: string[] = [];
      const walk = (el: Element) => {
        for (const child of el.children.filter(isElement)) {
          if (child.tagName === "tr") {
            rows.push(
              `${indent}| ${child.children
                .filter(isElement)
                .map((cell) => inlineText(cell.children, publicUrl).trim())
                .join(" | ")} |`,
            );
          } else walk(child);
        }
      };
      walk(node);
      blocks.push(rows.join("\n"));
    } else if (tag === "hr") {
      blocks.push(`${indent}----`);
    } else {
      blocks.push(...blocksText(node.children, publicUrl, indent));
    }
  }
  flush();
  return blocks;
}

/** The post body as plain text: paragraphs, underlined headings, indented code, links after their text. */
export function mailBodyText(bodyHtml: string, publicUrl: string): string {
  const tree = fromHtml(bodyHtml, { fragment: true });
  return blocksText(tree.children, publicUrl).join("\n\n");
}

export const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export interface NewsletterContent {
  locale: "en" | "zh";
  siteName: string;
  title: string;
  summary: string;
  /** Site-relative or absolute; null = no cover. */
  coverUrl: string | null;
  coverAlt: string;
  /** The stored, sanitized post HTML. */
  bodyHtml: string;
  /** Absolute URL of the post on the site. */
  postUrl: string;
  /** Already formatted in the mail's language. */
  dateLine: string;
  /** The brand's logo, shown 40 px high above the site's name; null or absent: the name alone. */
  logo?: { url: string; width: number; height: number } | null;
  /** The brand's accent (`#rrggbb`) for the button; null or absent: the default link blue. */
  accent?: string | null;
  strings: {
    readOnSite: string;
    /** Why they get it; `{{site}}` already filled. */
    footer: string;
    unsubscribe: string;
    preferences: string;
  };
}

export interface RenderedNewsletter {
  subject: string;
  html: string;
  text: string;
  /** The sender's display name: the site's name in the mail's language (absent in sends stored before it). */
  fromName?: string;
}

/**
 * A whole newsletter mail: subject = title, a hidden preheader = summary, the body
 * in a 600 px column, a "read on the site" link and a footer with the reader's
 * unsubscribe and language links (placeholders, filled per recipient).
 */
export function renderNewsletter(c: NewsletterContent, publicUrl: string): RenderedNewsletter {
  const body = mailBodyHtml(c.bodyHtml, publicUrl);
  const cover = c.coverUrl
    ? `<img src="${escapeHtml(absoluteUrl(c.coverUrl, publicUrl))}" alt="${escapeHtml(c.coverAlt)}" width="600" style="${STYLES.img};margin-bottom:20px;border-radius:6px">`
    : "";
  const logo = c.logo
    ? `<img src="${escapeHtml(absoluteUrl(c.logo.url, publicUrl))}" alt="" height="40" width="${Math.round((40 * c.logo.width) / Math.max(1, c.logo.height))}" style="display:block;height:40px;width:auto;max-width:240px;margin:0 0 8px;border:0">`
    : "";
  const accent = c.accent && /^#[0-9a-f]{6}$/i.test(c.accent) ? c.accent : LINK;
  const html = `<!doctype html>
<html lang="${c.locale === "zh" ? "zh-CN" : "en"}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="supported-color-schemes" content="light dark">
<title>${escapeHtml(c.title)}</title>
<style>
@media (prefers-color-scheme: dark) {
  .iw-page { background: #18181b !important; }
  .iw-card { background: #27272a !important; }
  .iw-card, .iw-card p, .iw-card li, .iw-card h1, .iw-card h2, .iw-card h3, .iw-card h4, .iw-card td, .iw-card th { color: #f4f4f5 !important; }
  .iw-card a { color: #93c5fd !important; }
  .iw-card pre, .iw-card code, .iw-card th { background: #18181b !important; color: #e4e4e7 !important; }
  .iw-card pre span { color: inherit !important; }
}
</style>
</head>
<body class="iw-page" style="margin:0;padding:0;background:#f4f4f5">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:transparent">${escapeHtml(c.summary)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="iw-page" style="background:#f4f4f5">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" class="iw-card" style="max-width:640px;background:#ffffff;border-radius:8px">
<tr><td style="padding:28px 24px;font-family:${FONT};font-size:17px;line-height:1.65;color:${TEXT}">
${logo}<p style="margin:0 0 20px;font-size:14px;color:${MUTED}">${escapeHtml(c.siteName)}</p>
<h1 style="${STYLES.h1};margin-top:0"><a href="${escapeHtml(c.postUrl)}" style="color:${TEXT};text-decoration:none">${escapeHtml(c.title)}</a></h1>
<p style="margin:0 0 20px;font-size:14px;color:${MUTED}">${escapeHtml(c.dateLine)}</p>
${cover}
${body}
<p style="margin:28px 0 0"><a href="${escapeHtml(c.postUrl)}" style="display:inline-block;padding:10px 18px;background:${accent};color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(c.strings.readOnSite)}</a></p>
</td></tr>
</table>
<p style="max-width:600px;margin:16px auto 0;font-family:${FONT};font-size:13px;line-height:1.5;color:${MUTED}">${escapeHtml(c.strings.footer)}<br>
<a href="${PLACEHOLDER.unsubscribe}" style="color:${MUTED}">${escapeHtml(c.strings.unsubscribe)}</a> · <a href="${PLACEHOLDER.preferences}" style="color:${MUTED}">${escapeHtml(c.strings.preferences)}</a></p>
</td></tr>
</table>
</body>
</html>`;
  const text = [
    c.title,
    c.dateLine,
    c.summary,
    mailBodyText(c.bodyHtml, publicUrl),
    `${c.strings.readOnSite}: ${c.postUrl}`,
    `--\n${c.strings.footer}\n${c.strings.unsubscribe}: ${PLACEHOLDER.unsubscribe}\n${c.strings.preferences}: ${PLACEHOLDER.preferences}`,
  ]
    .filter((part) => part.trim() !== "")
    .join("\n\n");
  return { subject: c.title, html, text, fromName: c.siteName };
}

/** The mail for one reader: their own links in place of the placeholders. */
export function personalize(mail: RenderedNewsletter, links: { unsubscribe: string; preferences: string }) {
  const fill = (s: string, inHtml: boolean) =>
    s
      .replaceAll(PLACEHOLDER.unsubscribe, inHtml ? escapeHtml(links.unsubscribe) : links.unsubscribe)
      .replaceAll(PLACEHOLDER.preferences, inHtml ? escapeHtml(links.preferences) : links.preferences);
  return { subject: mail.subject, html: fill(mail.html, true), text: fill(mail.text, false) };
}
