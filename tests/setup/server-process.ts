import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_ENTRY } from "../../scripts/build-if-stale.js";

export const repoRoot = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), "inkwell-it-"));
}

export interface ServerProcess {
  url: string;
  port: number;
  proc: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) and how long it took after `stop()` was called. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; ms: number }>;
}

/**
 * Starts the production server (the built SERVER_ENTRY `npm start` runs, or a test
 * entry point in tests/setup that calls its `start` with test seams) and waits until
 * /healthz answers. `nodeArgs` go to Node before the entry.
 */
export async function startServer(
  env: Record<string, string>,
  opts: { waitReady?: boolean; entry?: string; nodeArgs?: string[] } = {},
): Promise<ServerProcess> {
  // A caller that must name the port up front (an OAuth redirect URI) passes PORT.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), opts.entry ?? SERVER_ENTRY], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "warn",
      // Tests send many mails in moments; the rate limit has its own test.
      MAIL_RATE_PER_MINUTE: "100000",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  proc.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once("exit", (code, signal) => resolve({ code, signal }));
  });
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    port,
    proc,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      const started = Date.now();
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      const { code } = await exited;
      return { code, ms: Date.now() - started };
    },
  };
  if (opts.waitReady === false) return server;
  // A ceiling, not a target: on a machine busy with other test files a production server
  // took more than 20 s to answer its first /healthz, and the file failed for it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return server;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill("SIGKILL");
      throw new Error(`server did not become ready:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
