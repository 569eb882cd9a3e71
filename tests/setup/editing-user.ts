import type { EditorInput } from "../../app/lib/schemas/post.ts";
import { newId } from "../../app/server/platform/ids.server.ts";
import type { EditingUser } from "../../app/server/posts/post-access.server.ts";

/**
 * Account `id` editing as an author who is not an admin: it may edit its own posts only
 * (app/server/posts/post-access.server.ts), so a test of someone else's post sees "not found".
 */
export function asAuthor(id: string): EditingUser {
  return { id, isAdmin: false };
}

/** Account `id` editing as an admin: it may edit every post. */
export function asAdmin(id: string): EditingUser {
  return { id, isAdmin: true };
}

/**
 * What the editor's form sends for a new draft with one English version (`title`, `body`);
 * `overrides` replace whole fields (a second language goes in `translations`).
 */
export function editorInput(
  opts: { title?: string; body?: string } = {},
  overrides: Partial<EditorInput> = {},
): EditorInput {
  const { title = "A title", body = "Words." } = opts;
  return {
    key: newId(),
    slug: "",
    categoryId: null,
    tags: [],
    coverImageUrl: null,
    coverAlt: "",
    status: "draft",
    publishAt: null,
    translations: [{ locale: "en", title, summary: "", bodyMarkdown: body, seoTitle: null, seoDescription: null }],
    ...overrides,
  };
}
