// Child processes for the bench: the server under test (or the static ceiling),
// its boot time to the first 200 of /healthz, and its memory sampled from
// /proc/<pid>/status while it runs.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../tests/setup/server-process.ts";

export const repoRoot = path.resolve(import.meta.dirname, "..");

const MiB = 1024 * 1024;

/** VmRSS (now) and VmHWM (the kernel's peak) of a process, in bytes; null once it is gone. */
export function readMemory(pid: number): { rss: number; hwm: number } | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

export interface Running {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 of /healthz. */
  bootMs: number;
  /** The highest resident memory seen so far (sampled every 100 ms, and the kernel's own peak), in MiB. */
  peakRssMiB(): number;
  output(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of live) child.kill("SIGKILL");
});

/**
 * Spawns `node <args>` with `env` (plus PATH, HOME, HOST=127.0.0.1 and a free
 * PORT) and resolves once GET /healthz answers 200, polling every 10 ms.
 */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  opts: { timeoutMs?: number } = {},
): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST: "127.0.0.1",
      PORT: String(port),
      // Passed on, to try V8 settings or a preload on the server.
      ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(child);
  let out = "";
  const collect = (d: Buffer) => {
    // Enough to explain a failure; a chatty server must not grow the bench's memory.
    if (out.length < 64 * 1024) out += d.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => {
      live.delete(child);
      resolve();
    });
  });
  const pid = child.pid ?? 0;

  let peak = 0;
  const sample = () => {
    const mem = readMemory(pid);
    if (mem) peak = Math.max(peak, mem.rss, mem.hwm);
  };
  const sampler = setInterval(sample, 100);
  sampler.unref();

  const stop = async () => {
    sample();
    clearInterval(sampler);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(killer);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = started + (opts.timeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node ${args.join(" ")} exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`node ${args.join(" ")} did not answer /healthz in time:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const bootMs = performance.now() - started;
  sample();
  return {
    url,
    pid,
    bootMs,
    peakRssMiB: () => {
      sample();
      return peak / MiB;
    },
    output: () => out,
    stop,
  };
}
