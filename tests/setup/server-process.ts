import { type ChildProcess, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { closeSync, mkdirSync, mkdtempSync, openSync, statSync, unlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { SERVER_ENTRY } from "../../scripts/build-if-stale.js";

export const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Whether something could listen on `port` on 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/** Where each port handed out is marked, for every test process on the machine. */
const RESERVED_PORTS = path.join(tmpdir(), "inkwell-test-ports");
/** Below Linux's ephemeral range (32768–60999): no outgoing connection is given one of these. */
const PORT_RANGE = { from: 20_000, size: 12_000 } as const;
/** A mark older than this belongs to a run that has ended. */
const STALE_MARK_MS = 60 * 60_000;

/** Marks `port` as taken, atomically across processes; false when another process has it. */
function reservePort(port: number): boolean {
  const mark = path.join(RESERVED_PORTS, String(port));
  try {
    closeSync(openSync(mark, "wx"));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(mark).mtimeMs < STALE_MARK_MS) return false;
      unlinkSync(mark);
      closeSync(openSync(mark, "wx"));
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * A port no other test process will be given. Asking the kernel for port 0 and closing it
 * handed the same port to two test files running at once (the second server's /healthz
 * answered the first file's requests, on a loaded machine, now and then), and outgoing
 * connections take ports from the same range. So ports come from below that range, each
 * marked with an exclusively created file before it is handed out.
 */
export async function freePort(): Promise<number> {
  mkdirSync(RESERVED_PORTS, { recursive: true });
  for (let attempt = 0; attempt < 500; attempt++) {
    const port = PORT_RANGE.from + randomInt(PORT_RANGE.size);
    if (reservePort(port) && (await canListen(port))) return port;
  }
  throw new Error(`no free port left in ${PORT_RANGE.from}–${PORT_RANGE.from + PORT_RANGE.size}`);
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
