/**
 * A tiny XML writer for the feeds and the sitemap. Documents are built as trees of
 * `el()` nodes; every text and attribute value is escaped when the tree is
 * written, so no caller ever concatenates user text into markup.
 */

export interface XmlElement {
  readonly kind: "element";
  readonly name: string;
  readonly attrs: Readonly<Record<string, string | undefined>>;
  readonly children: readonly XmlChild[];
}

export interface XmlCData {
  readonly kind: "cdata";
  readonly text: string;
}

/** Strings are text; null, undefined and false are left out (for optional parts). */
export type XmlChild = XmlElement | XmlCData | string | null | undefined | false;

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/;

/** An element: `el("item", {}, el("title", {}, post.title))`. Attributes set to undefined are left out. */
export function el(
  name: string,
  attrs: Readonly<Record<string, string | undefined>> = {},
  ...children: Array<XmlChild | readonly XmlChild[]>
): XmlElement {
  if (!NAME.test(name)) throw new Error(`invalid XML element name: ${name}`);
  for (const key of Object.keys(attrs)) {
    if (!NAME.test(key)) throw new Error(`invalid XML attribute name: ${key}`);
  }
  return { kind: "element", name, attrs, children: children.flat() };
}

/** Text in a CDATA section (for HTML in RSS `content:encoded`); `]]>` inside is split safely. */
export function cdata(text: string): XmlCData {
  return { kind: "cdata", text };
}

/**
 * Removes what XML 1.0 cannot carry at all: control characters other than tab,
 * line feed and carriage return, lone surrogates, U+FFFE and U+FFFF.
 */
export function stripInvalidXmlChars(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 forbids
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    "",
  );
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Escapes text for element content and attribute values alike. */
export function escapeXml(text: string): string {
  return stripInvalidXmlChars(text).replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

function write(node: XmlChild, out: string[]): void {
  if (node === null || node === undefined || node === false) return;
  if (typeof node === "string") {
    out.push(escapeXml(node));
    return;
  }
  if (node.kind === "cdata") {
    out.push(`<![CDATA[${stripInvalidXmlChars(node.text).replaceAll("]]>", "]]]]><![CDATA[>")}]]>`);
    return;
  }
  out.push(`<${node.name}`);
  for (const [key, value] of Object.entries(node.attrs)) {
    if (value !== undefined) out.push(` ${key}="${escapeXml(value)}"`);
  }
  if (node.children.length === 0) {
    out.push("/>");
    return;
  }
  out.push(">");
  for (const child of node.children) write(child, out);
  out.push(`</${node.name}>`);
}

/** The whole document, with the XML declaration, as UTF-8 text. */
export function renderXml(root: XmlElement): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out);
  out.push("\n");
  return out.join("");
}
