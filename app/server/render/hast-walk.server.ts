import type { Element, Root } from "hast";

// Small helpers over a HTML tree, kept apart from the Markdown pipeline (markdown.server.ts) so the
// code that decorates stored HTML on every read does not load unified and remark with them.

/** `https://…`, `http://…` and protocol-relative `//host/…` lead to another site. */
export function isExternalHref(href: string): boolean {
  return /^(?:https?:)?\/\//i.test(href);
}

/** Calls `fn` for every element below `node`, parents before children. */
export function visitElements(node: Root | Element, fn: (element: Element, parent: Root | Element) => void): void {
  for (const child of node.children) {
    if (child.type !== "element") continue;
    fn(child, node);
    visitElements(child, fn);
  }
}
