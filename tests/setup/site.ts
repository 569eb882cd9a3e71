import { type DB, openDatabase } from "../../app/server/db/db.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { type ServerProcess, startServer, tempDataDir } from "./server-process.ts";
import { createServerDatabaseUrl } from "./test-db.ts";

/** A production server on a fresh data directory and database, with the test's own handle on that database. */
export interface Site {
  server: ServerProcess;
  db: DB;
  dataDir: string;
  /** The server's DATABASE_URL (to start another process on the same data). */
  databaseUrl: string;
  /** `/api/auth/…` as a JSON POST from the trusted origin, with a session cookie and more headers when given. */
  authApi(path: string, body: unknown, cookie?: string, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

export async function startSite(env: Record<string, string>, opts: { entry?: string } = {}): Promise<Site> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  const server = await startServer(
    { DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_REQUESTS: "false", ...env },
    opts,
  );
  const opened = openDatabase(parseDatabaseUrl(database.url, dataDir), { poolMax: 2 });
  const site: Site = {
    server,
    db: opened.db,
    dataDir,
    databaseUrl: database.url,
    authApi: (path, body, cookie = "", headers = {}) =>
      fetch(`${server.url}/api/auth/${path}`, {
        method: "POST",
        // PUBLIC_URL's default: better-auth's trusted origin.
        headers: {
          "content-type": "application/json",
          origin: `http://localhost:${server.port}`,
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    async stop() {
      // The server the site has now (a test may have restarted it).
      await site.server.stop("SIGKILL");
      await opened.close();
      await database.cleanup();
    },
  };
  return site;
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
