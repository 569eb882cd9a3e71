import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { POST_LIMITS } from "../../../lib/schemas/post.ts";
import { lazyModule } from "../../platform/lazy-module.server.ts";
import { SourceRefused } from "../markdown-folder.server.ts";

// Reading a WordPress export (WXR 1.1/1.2, Tools → Export; docs/decisions/022-wordpress-import.md):
// the XML is streamed through saxes (no DTD: a DOCTYPE is refused, so no entity expansion and no
// external entities) into small records per <item>, keeping only the fields the importer uses.
// What those records become is items.server.ts and reader.server.ts.
/** The XML parser, loaded with the first export read. */
const saxesModule = lazyModule(() => import("saxes"));

/** The largest export read (checked before reading). */
export const WXR_FILE_MAX_BYTES = 1024 * 1024 * 1024;
/** Items of any type (posts, attachments, revisions, menu items…) one export may hold. */
export const WXR_MAX_ITEMS = 200_000;
/** Characters the parser may buffer without reaching the end of a text or tag (a 1 GB line is refused). */
export const WXR_TOKEN_MAX = 16 * 1024 * 1024;

/** Bodies longer than this are not kept while reading (the post fails with bodyTooLong). */
const CONTENT_MAX = POST_LIMITS.bodyMax * 4;
/** Other fields are cut at this length while reading. */
const FIELD_MAX = 20_000;

export interface RawComment {
  id: string;
  author: string;
  email: string;
  url: string;
  date: string;
  dateGmt: string;
  content: string;
  approved: string;
  type: string;
  parent: string;
}

export interface RawItem {
  title: string;
  link: string;
  creator: string;
  content: string;
  contentTooLong: boolean;
  excerpt: string;
  id: string;
  date: string;
  dateGmt: string;
  name: string;
  status: string;
  parent: string;
  type: string;
  password: string;
  attachmentUrl: string;
  categories: { domain: string; nicename: string; name: string }[];
  meta: Map<string, string>;
  comments: RawComment[];
}

/** Post meta kept (everything else, serialized PHP included, is never looked at). */
const META_KEPT = new Set(["_thumbnail_id", "_wp_attachment_image_alt"]);

const emptyItem = (): RawItem => ({
  title: "",
  link: "",
  creator: "",
  content: "",
  contentTooLong: false,
  excerpt: "",
  id: "",
  date: "",
  dateGmt: "",
  name: "",
  status: "",
  parent: "",
  type: "",
  password: "",
  attachmentUrl: "",
  categories: [],
  meta: new Map(),
  comments: [],
});

const emptyComment = (): RawComment => ({
  id: "",
  author: "",
  email: "",
  url: "",
  date: "",
  dateGmt: "",
  content: "",
  approved: "",
  type: "",
  parent: "",
});

/** An author as the export's channel lists it (`wp:author`). */
export interface WxrAuthor {
  name: string;
  email: string;
}

export interface WxrDocument {
  version: string;
  /** Login → the author's display name and e-mail. */
  authors: Map<string, WxrAuthor>;
  /** Category nicename → its parent's nicename ("" at the top), from the channel's wp:category list. */
  categoryParents: Map<string, string>;
  items: RawItem[];
}

const ITEM_FIELDS: Record<string, keyof RawItem> = {
  title: "title",
  link: "link",
  "dc:creator": "creator",
  "content:encoded": "content",
  "excerpt:encoded": "excerpt",
  "wp:post_id": "id",
  "wp:post_date": "date",
  "wp:post_date_gmt": "dateGmt",
  "wp:post_name": "name",
  "wp:status": "status",
  "wp:post_parent": "parent",
  "wp:post_type": "type",
  "wp:post_password": "password",
  "wp:attachment_url": "attachmentUrl",
};

const COMMENT_FIELDS: Record<string, keyof RawComment> = {
  "wp:comment_id": "id",
  "wp:comment_author": "author",
  "wp:comment_author_email": "email",
  "wp:comment_author_url": "url",
  "wp:comment_date": "date",
  "wp:comment_date_gmt": "dateGmt",
  "wp:comment_content": "content",
  "wp:comment_approved": "approved",
  "wp:comment_type": "type",
  "wp:comment_parent": "parent",
};

/**
 * Parses WXR text given in pieces (a file stream's chunks), keeping only what the importer uses.
 * Refuses a DOCTYPE, malformed XML, a document that is not a WordPress export, too many items and
 * a text or tag longer than WXR_TOKEN_MAX.
 */
export async function parseWxr(
  chunks: AsyncIterable<string> | Iterable<string>,
  opts: {
    /** Each item as it closes, instead of keeping it in `items` (a reader that streams). */
    onItem?: (item: RawItem) => void;
    /** After each piece is parsed: where a streaming reader hands on what it has. */
    afterChunk?: () => Promise<void>;
  } = {},
): Promise<WxrDocument> {
  const { SaxesParser } = await saxesModule();
  const parser = new SaxesParser({ position: true });
  let itemCount = 0;
  const doc: WxrDocument = { version: "", authors: new Map(), categoryParents: new Map(), items: [] };
  const stack: string[] = [];
  let text = "";
  let textTooLong = false;
  let item: RawItem | null = null;
  let comment: RawComment | null = null;
  let category: RawItem["categories"][number] | null = null;
  let metaKey = "";
  let metaValue = "";
  let authorLogin = "";
  let authorName = "";
  let authorEmail = "";
  let categoryNicename = "";
  let categoryParent = "";
  let rootSeen = false;
  let pending = 0;
  let failure: Error | null = null;

  const fail = (message: string) => {
    failure ??= new SourceRefused(message);
  };
  const limitFor = (name: string) => (name === "content:encoded" ? CONTENT_MAX : FIELD_MAX);
  const addText = (t: string) => {
    pending = 0;
    const name = stack[stack.length - 1] ?? "";
    if (textTooLong) return;
    if (text.length + t.length > limitFor(name)) {
      textTooLong = true;
      text += t.slice(0, Math.max(0, limitFor(name) - text.length));
      return;
    }
    text += t;
  };

  parser.on("doctype", () => fail("a DOCTYPE is not allowed in a WordPress export (entity expansion is refused)"));
  parser.on("processinginstruction", () => {
    pending = 0;
  });
  parser.on("text", addText);
  parser.on("cdata", addText);
  parser.on("opentag", (tag) => {
    pending = 0;
    if (!rootSeen) {
      rootSeen = true;
      if (tag.name !== "rss") fail(`not a WordPress export (the root element is <${tag.name.slice(0, 40)}>)`);
    }
    stack.push(tag.name);
    text = "";
    textTooLong = false;
    if (tag.name === "item" && stack.length === 3) {
      if (!doc.version) fail("not a WordPress export (no wp:wxr_version before the first item)");
      if (itemCount >= WXR_MAX_ITEMS) fail(`more than ${WXR_MAX_ITEMS} items`);
      item = emptyItem();
    } else if (item && tag.name === "wp:comment") comment = emptyComment();
    else if (item && tag.name === "category" && !comment) {
      const attr = (n: string) => {
        const v = tag.attributes[n];
        return typeof v === "string" ? v : "";
      };
      category = { domain: attr("domain"), nicename: attr("nicename"), name: "" };
    } else if (item && tag.name === "wp:postmeta") {
      metaKey = "";
      metaValue = "";
    } else if (tag.name === "wp:author" && !item) {
      authorLogin = "";
      authorName = "";
      authorEmail = "";
    }
  });
  parser.on("closetag", (tag) => {
    pending = 0;
    const name = tag.name;
    const value = text;
    const tooLong = textTooLong;
    stack.pop();
    text = "";
    textTooLong = false;
    const parent = stack[stack.length - 1] ?? "";
    if (name === "wp:wxr_version" && parent === "channel") {
      doc.version = value.trim();
      if (!/^1\.[0-2]$/.test(doc.version)) fail(`unsupported WXR version ${doc.version.slice(0, 20)}`);
      return;
    }
    if (!item) {
      if (name === "wp:author_login") authorLogin = value.trim();
      else if (name === "wp:author_display_name") authorName = value.trim();
      else if (name === "wp:author_email") authorEmail = value.trim();
      else if (name === "wp:author" && authorLogin && doc.authors.size < WXR_MAX_ITEMS)
        doc.authors.set(authorLogin, { name: authorName || authorLogin, email: authorEmail });
      else if (name === "wp:category_nicename") categoryNicename = value.trim();
      else if (name === "wp:category_parent") categoryParent = value.trim();
      else if (name === "wp:category" && categoryNicename && doc.categoryParents.size < WXR_MAX_ITEMS) {
        doc.categoryParents.set(categoryNicename, categoryParent);
        categoryNicename = "";
        categoryParent = "";
      }
      return;
    }
    if (comment) {
      const field = COMMENT_FIELDS[name];
      if (field && parent === "wp:comment") comment[field] = value;
      else if (name === "wp:comment") {
        item.comments.push(comment);
        comment = null;
      }
      return;
    }
    if (name === "item") {
      itemCount += 1;
      if (opts.onItem) opts.onItem(item);
      else doc.items.push(item);
      item = null;
      return;
    }
    if (category && name === "category") {
      category.name = value.trim();
      item.categories.push(category);
      category = null;
      return;
    }
    if (parent === "wp:postmeta") {
      if (name === "wp:meta_key") metaKey = value.trim();
      else if (name === "wp:meta_value") metaValue = value;
      return;
    }
    if (name === "wp:postmeta") {
      if (META_KEPT.has(metaKey)) item.meta.set(metaKey, metaValue.trim());
      return;
    }
    const field = ITEM_FIELDS[name];
    if (field && parent === "item") {
      if (field === "content") {
        item.content = value;
        item.contentTooLong = tooLong;
      } else if (field !== "categories" && field !== "meta" && field !== "comments" && field !== "contentTooLong") {
        item[field] = value;
      }
    }
  });
  parser.on("error", (error) => {
    fail(`not well-formed XML: ${error.message.slice(0, 200)}`);
  });

  for await (const chunk of chunks) {
    pending += chunk.length;
    try {
      parser.write(chunk);
    } catch (error) {
      fail(`not well-formed XML: ${error instanceof Error ? error.message.slice(0, 200) : ""}`);
    }
    if (failure) throw failure;
    if (pending > WXR_TOKEN_MAX) throw new SourceRefused(`a text or tag longer than ${WXR_TOKEN_MAX} characters`);
    if (opts.afterChunk) await opts.afterChunk();
  }
  if (!rootSeen && !failure) throw new SourceRefused("not an XML file");
  try {
    parser.close();
  } catch (error) {
    fail(`not well-formed XML: ${error instanceof Error ? error.message.slice(0, 200) : ""}`);
  }
  if (failure) throw failure;
  if (!doc.version) throw new SourceRefused("not a WordPress export (no wp:wxr_version)");
  return doc;
}

/** Streams and parses an export file; refuses what is too large, not XML or not WXR. */
export async function loadWxr(file: string): Promise<WxrDocument> {
  await checkWxrFile(file);
  return parseWxrFile(file);
}

export async function checkWxrFile(file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new SourceRefused(`not a file: ${file}`);
  if (info.size > WXR_FILE_MAX_BYTES)
    throw new SourceRefused(`the export is larger than ${WXR_FILE_MAX_BYTES / 1024 / 1024} MB (${info.size} bytes)`);
}

export async function parseWxrFile(file: string, opts: Parameters<typeof parseWxr>[1] = {}): Promise<WxrDocument> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 64 * 1024 });
  try {
    return await parseWxr(stream, opts);
  } finally {
    stream.destroy();
  }
}

/** Text already in memory (an upload) in the pieces a file stream would give. */
export function* wxrChunks(text: string, size = 64 * 1024): Generator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}
