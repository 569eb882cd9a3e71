import type { ChangeTags } from "./content-version.server.ts";

/**
 * The part of a request (RequestState, context.server.ts) that tags touch. Named here rather
 * than imported: the request's state names nearly every service, and the post lifecycle,
 * which those services reach, uses this module.
 */
interface TaggedRequest {
  effects: { tags: string[] };
  changes?: ChangeTags;
}

/**
 * Tags name what a cached page shows that a narrow change can make stale, so the
 * change drops those pages and leaves the rest of the cache (a comment on one post
 * must not re-render the whole site). Everything else changes "all".
 */

/** The tag of a post's own pages (both languages, every comment page): what a comment changes. */
export function postTag(postId: string): string {
  return `post:${postId}`;
}

/** The tag of the pages that show a post by its title, summary or cover: lists, neighbours, related posts. */
export function listedTag(postId: string): string {
  return `listed:${postId}`;
}

/**
 * The tag of the pages that show something of every public post, or may after any
 * edit: search results (an edit can make a post match), the sitemap, the feeds.
 */
export const PUBLIC_POSTS_TAG = "posts";

function tagPage(req: TaggedRequest, tag: string): void {
  if (!req.effects.tags.includes(tag)) req.effects.tags.push(tag);
}

/** Notes that this request's page shows the post (a change to it drops the page). */
export function pageShowsPost(req: TaggedRequest, postId: string): void {
  tagPage(req, postTag(postId));
}

/** Notes every post a page lists or links by title (lists, neighbours, related posts). */
export function pageShowsPosts(req: TaggedRequest, postIds: Iterable<string>): void {
  for (const id of postIds) tagPage(req, listedTag(id));
}

/** Notes that the page depends on every public post (see PUBLIC_POSTS_TAG). */
export function pageShowsAnyPost(req: TaggedRequest): void {
  tagPage(req, PUBLIC_POSTS_TAG);
}

/** Notes that this request's write changed only what the post's own pages show. */
export function writeChangesPost(req: TaggedRequest, postId: string): void {
  req.changes = [postTag(postId)];
}

/**
 * What saving a post in the editor changed for readers. A post readers cannot see before
 * or after the save (a draft, a scheduled post): only its own tag. A published post
 * edited where it stays (same date, address, category, tags and languages): the pages
 * that show it and those that depend on every post. Anything else (published,
 * unpublished, moved in the lists, a new tag): every page, since lists, counts, tag
 * and category pages and neighbours all change.
 */
export function editorChanges(
  postId: string,
  visible: { before: boolean; after: boolean },
  moved: boolean,
): ChangeTags {
  if (!visible.before && !visible.after) return [postTag(postId)];
  if (visible.before && visible.after && !moved) return [postTag(postId), listedTag(postId), PUBLIC_POSTS_TAG];
  return "all";
}

/**
 * A write whose pages the post lifecycle already dropped and announced
 * (app/server/posts/lifecycle.server.ts): the route has nothing left to drop, and a second
 * announcement would make every instance drop the same pages twice.
 */
export function lifecycleAnnounced(req: TaggedRequest): void {
  req.changes = [];
}
