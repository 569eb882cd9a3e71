import { readFile } from "node:fs/promises";
import path from "node:path";
import { type AdminDoc, docHref, isAdminDoc } from "../../lib/admin-docs.ts";
import { markdownModule } from "../render/markdown-load.server.ts";

/** Where the guides are: the repository's docs folder, beside the built app (the server runs from the clone). */
const DOCS_DIR = path.resolve(process.cwd(), "docs");

export interface RenderedDoc {
  title: string;
  html: string;
}

/**
 * One guide as sanitized HTML, its links to other guides pointing at their admin pages
 * (`configuration.md#x` → `/admin/docs/configuration`); null when the file is missing.
 */
export async function readAdminDoc(doc: AdminDoc): Promise<RenderedDoc | null> {
  let markdown: string;
  try {
    markdown = await readFile(path.join(DOCS_DIR, `${doc}.md`), "utf8");
  } catch {
    return null;
  }
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim() ?? doc;
  // A link to another guide opens it here; one to a file the admin does not show (the
  // developer's docs, the decisions) would be a dead end, so it keeps only its text.
  // The Markdown pipeline loads on first use (decision 024): a reader's page never needs it.
  const { renderMarkdownCached } = await markdownModule();
  const html = renderMarkdownCached(markdown).replace(
    /<a href="(?:\.\/)?((?:[a-z0-9-]+\/)*[a-z0-9-]+)\.md(?:#[^"]*)?"[^>]*>([\s\S]*?)<\/a>/g,
    (_whole, name: string, text: string) => (isAdminDoc(name) ? `<a href="${docHref(name)}">${text}</a>` : text),
  );
  return { title, html };
}
