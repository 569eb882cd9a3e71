import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { forgetPostCounts } from "../posts/post-counts.server.ts";
import type { ChangeTags, ContentVersionStore } from "./content-version.server.ts";
import type { RenderCache } from "./render-cache.server.ts";

/**
 * The one way to say "what readers see has changed": a route whose policy says
 * `writes: "content"`, better-auth's user hooks (a renamed or deleted account) and
 * the post lifecycle (app/server/posts/lifecycle.server.ts, for every change of a post,
 * the scheduler's included) all call `changed()`. A write that knows which pages it
 * touched names their tags (a comment: its post's); the others drop every page.
 */
export interface ContentChanges {
  /**
   * Drops this instance's rendered pages that `tags` names (all of them, and the
   * cached list totals, for "all"), then bumps the shared version with the tags so
   * every other instance drops the same pages within a poll. Awaited before
   * answering: the writer's next page must not come from a stale cache.
   */
  changed(tags?: ChangeTags): Promise<void>;
  /** What an instance does when it notices someone else's change (the version watcher). */
  forgetLocal(tags: ChangeTags): void;
}

export function createContentChanges(deps: {
  db: DB;
  renderCache: RenderCache;
  version: ContentVersionStore;
  log: Logger;
  /** What else this instance keeps from the database and drops on a change (the redirect map). */
  alsoForget?: (tags: ChangeTags) => void;
}): ContentChanges {
  const forgetLocal = (tags: ChangeTags) => {
    deps.alsoForget?.(tags);
    if (tags !== "all") {
      deps.renderCache.invalidate(tags);
      return;
    }
    deps.renderCache.clear();
    forgetPostCounts(deps.db);
  };
  return {
    forgetLocal,
    async changed(tags = "all") {
      // Nothing named: no page to drop here, and nothing for the other instances to hear.
      if (tags !== "all" && tags.length === 0) return;
      forgetLocal(tags);
      try {
        await deps.version.bump(tags);
      } catch (error) {
        // The write itself succeeded; other instances catch up at the next bump.
        deps.log.warn({ err: error }, "could not bump the content version");
      }
    },
  };
}
