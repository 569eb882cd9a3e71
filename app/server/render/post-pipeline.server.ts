import type { Element, ElementContent, Root } from "hast";
import rehypeSanitize from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import type { Locale } from "../../lib/i18n/locale.ts";
import { BODY_IMAGE_SIZES, type MediaImage, mediaIdFromUrl } from "../../lib/media.ts";
import { visitElements } from "./hast-walk.server.ts";
import { hasCodeBlock, highlightCodeBlocks, loadHighlighter } from "./highlight.server.ts";
import { externalLinks, footnoteLinks, sanitizeSchema, tableAlignment, toHastOptions } from "./markdown.server.ts";
import { addPostMarkup, noteFenceLanguages } from "./post-markup.server.ts";
import { headingSlug, type RenderedPost, readingMinutes, type TocEntry } from "./post-outline.server.ts";

// A post's Markdown to stored HTML: the part of renderPost (post-render.server.ts) that needs
// unified and remark, imported by it on first use.

export interface RenderOptions {
  /** Looks up uploaded images by id, so their <img> gets srcset, width and height. */
  media?: (ids: string[]) => Promise<Map<string, MediaImage>>;
}

function textOf(node: ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

const HEADING = /^h([1-6])$/;

/**
 * Gives every heading an id unique within the post (a repeated heading gets `-1`,
 * `-2`…) and returns the h2/h3 headings as the table of contents. Runs after
 * sanitizing, which would otherwise prefix the ids; headings that already have
 * one (the footnotes' label) keep it and stay out of the contents.
 */
function addHeadingIds(tree: Root): TocEntry[] {
  const toc: TocEntry[] = [];
  const used = new Set<string>();
  visitElements(tree, (element: Element) => {
    const level = HEADING.exec(element.tagName)?.[1];
    if (!level) return;
    if (element.properties.id !== undefined) {
      used.add(String(element.properties.id));
      return;
    }
    const text = element.children.map(textOf).join("").replace(/\s+/g, " ").trim();
    const base = headingSlug(text);
    let id = base;
    for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    element.properties.id = id;
    if (level === "2" || level === "3") toc.push({ depth: level === "2" ? 2 : 3, id, text });
  });
  return toc;
}

/** The footnotes' screen-reader labels in the post's language. */
const FOOTNOTE_LABELS: Record<
  Locale,
  { footnoteLabel: string; footnoteBackLabel: (i: number, again: number) => string }
> = {
  en: {
    footnoteLabel: "Footnotes",
    footnoteBackLabel: (i, again) => `Back to reference ${i + 1}${again > 1 ? `-${again}` : ""}`,
  },
  zh: {
    footnoteLabel: "脚注",
    footnoteBackLabel: (i, again) => `返回引用 ${i + 1}${again > 1 ? `-${again}` : ""}`,
  },
};

function sanitizedTreeProcessor(locale: Locale) {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype, { ...toHastOptions, ...FOOTNOTE_LABELS[locale] })
    .use(rehypeSanitize, sanitizeSchema)
    .use(footnoteLinks)
    .use(externalLinks)
    .use(tableAlignment);
}

const toSanitizedTree = { en: sanitizedTreeProcessor("en"), zh: sanitizedTreeProcessor("zh") };

const stringifier = unified().use(rehypeStringify);

/**
 * Every image loads lazily; an uploaded one (/media/{id}/…) also gets its WebP
 * `srcset`, and its width and height so the page reserves the space before it
 * loads. Runs after sanitizing: these attributes come from our own records.
 */
async function sizeImages(tree: Root, media: RenderOptions["media"]): Promise<void> {
  const images: Element[] = [];
  visitElements(tree, (element: Element) => {
    if (element.tagName === "img") images.push(element);
  });
  if (images.length === 0) return;
  const ids = images.flatMap((img) => {
    const id = mediaIdFromUrl(typeof img.properties.src === "string" ? img.properties.src : null);
    return id ? [id] : [];
  });
  const found = media && ids.length > 0 ? await media(ids) : new Map<string, MediaImage>();
  for (const img of images) {
    img.properties.loading = "lazy";
    img.properties.decoding = "async";
    const id = mediaIdFromUrl(typeof img.properties.src === "string" ? img.properties.src : null);
    const image = id ? found.get(id) : undefined;
    if (!image) continue;
    img.properties.src = image.src;
    if (image.srcSet) {
      img.properties.srcSet = image.srcSet;
      img.properties.sizes = BODY_IMAGE_SIZES;
    }
    img.properties.width = image.width;
    img.properties.height = image.height;
  }
}

/** renderPost's work once the nesting was checked. */
export async function renderPostBody(markdown: string, locale: Locale, options: RenderOptions): Promise<RenderedPost> {
  const processor = toSanitizedTree[locale];
  const tree = processor.runSync(processor.parse(markdown)) as Root;
  const toc = addHeadingIds(tree);
  await sizeImages(tree, options.media);
  noteFenceLanguages(tree);
  if (hasCodeBlock(tree)) highlightCodeBlocks(tree, await loadHighlighter());
  addPostMarkup(tree, locale);
  return { html: stringifier.stringify(tree), toc, readingMinutes: readingMinutes(markdown) };
}
