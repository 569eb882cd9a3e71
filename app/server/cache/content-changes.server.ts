import type { Logger } from "pino";
import type { DB } from "../db/db.server.ts";
import { forgetPostCounts } from "../post-counts.server.ts";
import type { ContentVersionStore } from "./content-version.server.ts";
import type { RenderCache } from "./render-cache.server.ts";

/**
 * The one way to say "what readers see has changed": a route whose policy says
 * `writes: "content"`, better-auth's user hooks (a renamed or deleted account) and
 * the scheduled publisher all call `changed()`.
 */
export interface ContentChanges {
  /**
   * Drops this instance's rendered pages and cached list totals at once, then bumps
   * the shared version so every other instance drops theirs within a poll.
   * Awaited before answering: the writer's next page must not come from a stale cache.
   */
  changed(): Promise<void>;
  /** What an instance does when it notices someone else's change (the version watcher). */
  forgetLocal(): void;
}

export function createContentChanges(deps: {
  db: DB;
  renderCache: RenderCache;
  version: ContentVersionStore;
  log: Logger;
}): ContentChanges {
  const forgetLocal = () => {
    deps.renderCache.clear();
    forgetPostCounts(deps.db);
  };
  return {
    forgetLocal,
    async changed() {
      forgetLocal();
      try {
        await deps.version.bump();
      } catch (error) {
        // The write itself succeeded; other instances catch up at the next bump.
        deps.log.warn({ err: error }, "could not bump the content version");
      }
    },
  };
}
