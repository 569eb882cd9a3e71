/** One server of the browser tests: its port and data directory (scripts/e2e.ts starts them). */
export interface E2EServer {
  port: number;
  dataDir: string;
}

/**
 * The servers of this run, from E2E_SERVER_LIST (set by scripts/e2e.ts), else one
 * server from E2E_PORT / E2E_DATA_DIR (or the defaults) for a plain `playwright test`.
 */
export function e2eServers(): E2EServer[] {
  const list = process.env.E2E_SERVER_LIST;
  if (list) {
    const parsed: unknown = JSON.parse(list);
    if (
      Array.isArray(parsed) &&
      parsed.length > 0 &&
      parsed.every((s) => typeof s?.port === "number" && typeof s?.dataDir === "string")
    ) {
      return parsed as E2EServer[];
    }
    throw new Error("E2E_SERVER_LIST must be a JSON list of {port, dataDir}");
  }
  return [{ port: Number(process.env.E2E_PORT ?? 4173), dataDir: process.env.E2E_DATA_DIR ?? "./data/e2e" }];
}

/** The server a worker talks to: its parallel index picks one, for the worker's whole life. */
export function serverFor(parallelIndex: number): E2EServer & { url: string } {
  const servers = e2eServers();
  const server = servers[parallelIndex % servers.length] as E2EServer;
  return { ...server, url: `http://127.0.0.1:${server.port}` };
}
