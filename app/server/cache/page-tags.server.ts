import type { RequestState } from "../context.server.ts";
import type { ChangeTags } from "./content-version.server.ts";

/**
 * Tags name what a cached page shows that a narrow change can make stale, so the
 * change drops those pages and leaves the rest of the cache (a comment on one post
 * must not re-render the whole site). Everything else changes "all".
 */

/** The tag of the pages that show a post's comments. */
export function postTag(postId: string): string {
  return `post:${postId}`;
}

/** Notes that this request's page shows the post (a change to it drops the page). */
export function pageShowsPost(req: RequestState, postId: string): void {
  const tag = postTag(postId);
  if (!req.effects.tags.includes(tag)) req.effects.tags.push(tag);
}

/** Notes that this request's write changed only what the post's own pages show. */
export function writeChangesPost(req: RequestState, postId: string): void {
  req.changes = [postTag(postId)];
}

/**
 * What saving a post in the editor changed for readers: nothing public when the post was
 * not published before the save and is not after (a draft or a scheduled post), so only
 * its own tag; otherwise every page (lists, tags, feeds, neighbours may all show it).
 */
export function editorChanges(postId: string, visible: { before: boolean; after: boolean }): ChangeTags {
  return visible.before || visible.after ? "all" : [postTag(postId)];
}
