import { Router } from "express";
import type { DB } from "../db/db.server.ts";
import { pingDatabase } from "../db/db.server.ts";
import type { SharedState } from "../shared-state/index.server.ts";
import type { StorageDriver } from "../storage/types.server.ts";

export const APP_VERSION: string = process.env.npm_package_version ?? "0.1.0";

/** Resolves false when a check fails or takes longer than 2 s. */
const within2s = (check: Promise<boolean>) =>
  Promise.race([
    check.catch(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref()),
  ]);

/**
 * Liveness (/healthz), readiness for a load balancer (/readyz) and the build
 * endpoints the client polls to notice a deploy (/builds/…).
 */
export function healthRoutes(deps: { db: DB; storage: StorageDriver; shared: SharedState; buildId: string }): Router {
  const { db, storage, shared, buildId } = deps;
  const router = Router();

  router.get("/healthz", async (_req, res) => {
    const ok = await pingDatabase(db);
    res.setHeader("Cache-Control", "no-store");
    res
      .status(ok ? 200 : 503)
      .json({ status: ok ? "ok" : "unavailable", db: ok ? "ok" : "down", version: APP_VERSION, buildId });
  });

  // The database and the file store answer, and this instance applied (or found
  // applied) every migration before it started serving.
  router.get("/readyz", async (_req, res) => {
    const [dbOk, files, sharedOk] = await Promise.all([
      pingDatabase(db),
      within2s(storage.ping()),
      within2s(shared.ping()),
    ]);
    const ready = dbOk && files && sharedOk;
    res.setHeader("Cache-Control", "no-store");
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "unavailable",
      db: dbOk ? "ok" : "down",
      storage: files ? "ok" : "down",
      ...(shared.kind === "redis" ? { redis: sharedOk ? "ok" : "down" } : {}),
      migrations: "ok",
      version: APP_VERSION,
      buildId,
    });
  });

  // Stale-build detection: the client polls the latest id; a newer one makes its next
  // navigation a full page load.
  router.get("/builds/latest.json", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ buildId });
  });
  router.get("/builds/meta/:file", (req, res) => {
    if (String(req.params.file) !== `${buildId}.json`) {
      res.setHeader("Cache-Control", "no-store");
      res.status(404).json({ error: "unknown build" });
      return;
    }
    // A build's metadata never changes under its id.
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.json({ buildId, version: APP_VERSION });
  });
  return router;
}
