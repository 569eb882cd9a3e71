import type { Element, ElementContent, Root } from "hast";
import en from "../../../locales/en/post.json" with { type: "json" };
import zh from "../../../locales/zh/post.json" with { type: "json" };
import type { Locale } from "../../lib/i18n/locale.ts";
import { visitElements } from "./hast-walk.server.ts";

// The reading furniture a stored post body carries around its Markdown: tables in a
// scroll box, code blocks with a language label and a copy button, lone images as
// figures with a caption. It runs on the sanitized (and highlighted) tree, so what it
// adds is ours: user Markdown can produce none of these classes or attributes.
// The strings are read from the locale files directly: this code also runs in the CLI
// (seed, re-render), outside the bundled server where i18next's JSON does not load.

const WORDS = { en: en.body, zh: zh.body };

/** Class names the stylesheet (app/app.css) and the copy script (app/lean/code-copy.ts) know. */
export const MARKUP = {
  tableScroll: "table-scroll",
  codeBlock: "code-block",
  codeCopy: "code-copy",
  codeStatus: "code-status",
  figure: "post-figure",
} as const;

/** A button and its label in stored HTML (only the copy buttons: user Markdown makes none). */
const BUTTON = /<button\b(?:[^>"']|"[^"]*"|'[^']*')*>[^<]*<\/button>/gi;

/**
 * Stored post HTML without the page's controls (the copy buttons), for where nothing
 * runs them or they are not the post's words: feeds, the search index, snippets.
 */
export function withoutControls(html: string): string {
  return html.replace(BUTTON, " ");
}

/** A fence's language as a label: letters, digits and + # . - only, at most 20 characters. */
export function languageLabel(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const label = raw
    .toLowerCase()
    .replace(/[^a-z0-9+#.-]/g, "")
    .slice(0, 20);
  return label || null;
}

function el(tagName: string, properties: Element["properties"], children: ElementContent[] = []): Element {
  return { type: "element", tagName, properties, children };
}

/** `language-xyz` on a `<code>` element (before highlighting), or null. */
export function fenceLanguage(code: Element): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === "string" && name.startsWith("language-")) return languageLabel(name.slice(9));
  }
  return null;
}

/**
 * Notes each code block's fence language on its `<pre>` before Shiki replaces it (Shiki
 * only keeps the languages it knows; a `toml` block still deserves its label).
 */
export function noteFenceLanguages(tree: Root): void {
  visitElements(tree, (element) => {
    if (element.tagName !== "pre") return;
    const code = element.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
    const lang = code ? fenceLanguage(code) : null;
    if (lang) element.properties.dataFence = lang;
  });
}

function wrapChildren(parent: Root | Element, locale: Locale): void {
  const words = WORDS[locale];
  parent.children = parent.children.map((child) => {
    if (child.type !== "element") return child;
    if (child.tagName === "table") {
      // Focusable and named, so a keyboard can scroll a wide table (WCAG 2.1.1).
      return el("div", { className: [MARKUP.tableScroll], role: "region", tabIndex: 0, ariaLabel: words.table }, [
        child,
      ]);
    }
    if (child.tagName === "pre") {
      const lang = languageLabel(child.properties.dataFence) ?? languageLabel(child.properties.dataLanguage);
      delete child.properties.dataFence;
      return el("div", { className: [MARKUP.codeBlock], ...(lang ? { dataLanguage: lang } : {}) }, [
        child,
        el("button", { type: "button", className: [MARKUP.codeCopy], dataCopied: words.copied }, [
          { type: "text", value: words.copy },
        ]),
        el("span", { className: [MARKUP.codeStatus], role: "status", ariaLive: "polite" }),
      ]);
    }
    if (child.tagName === "p") {
      const figure = asFigure(child);
      if (figure) return figure;
    }
    if (child.tagName === "li") labelTaskCheckbox(child);
    wrapChildren(child, locale);
    return child;
  });
}

const BLOCKS = new Set(["p", "ul", "ol", "div", "pre", "blockquote", "table", "figure", "h1", "h2", "h3", "h4"]);

/**
 * A task list item's checkbox gets its text as a label (`<label><input> text</label>`):
 * a checkbox without a name is announced as just "checkbox".
 */
function labelTaskCheckbox(li: Element): void {
  const first = li.children.find((c) => c.type === "element");
  // A loose list puts the checkbox in the item's first paragraph.
  const holder = first?.tagName === "p" ? first : li;
  const index = holder.children.findIndex((c) => c.type === "element" && c.tagName === "input");
  if (index === -1) return;
  let end = index + 1;
  while (end < holder.children.length) {
    const next = holder.children[end];
    if (next?.type === "element" && BLOCKS.has(next.tagName)) break;
    end += 1;
  }
  const label = el("label", {}, holder.children.slice(index, end));
  holder.children.splice(index, end - index, label);
}

/**
 * A paragraph holding nothing but one image becomes a figure. Its title (`![alt](src
 * "caption")`) is the visible caption; the alt text stays the image's description for
 * screen readers, so nothing is read twice.
 */
function asFigure(p: Element): Element | null {
  const content = p.children.filter((c) => !(c.type === "text" && c.value.trim() === ""));
  const [only] = content;
  if (content.length !== 1 || only?.type !== "element") return null;
  // An image alone, or an image alone inside a link.
  const img =
    only.tagName === "img"
      ? only
      : only.tagName === "a" && only.children.length === 1 && only.children[0]?.type === "element"
        ? only.children[0].tagName === "img"
          ? only.children[0]
          : null
        : null;
  if (!img) return null;
  const caption = typeof img.properties.title === "string" ? img.properties.title.trim() : "";
  delete img.properties.title;
  return el("figure", { className: [MARKUP.figure] }, [
    only,
    ...(caption ? [el("figcaption", {}, [{ type: "text", value: caption }])] : []),
  ]);
}

/** Adds the furniture above to a sanitized, highlighted post tree. */
export function addPostMarkup(tree: Root, locale: Locale): void {
  wrapChildren(tree, locale);
}
