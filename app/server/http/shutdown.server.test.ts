import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { trackForShutdown } from "./shutdown.server.ts";

function get(port: number, path: string): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent: false }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => {
        body += d.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    });
    req.on("error", reject);
    req.end();
  });
}

async function listen(handlerDelayMs: number) {
  const server = createServer((_req, res) => {
    setTimeout(() => res.end("finished"), handlerDelayMs);
  });
  const closer = trackForShutdown(server, 2000);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { server, closer, port: (server.address() as AddressInfo).port };
}

describe("trackForShutdown", () => {
  it("lets a request in flight finish, refuses new connections, then resolves", async () => {
    const { closer, port } = await listen(500);
    const inFlight = get(port, "/slow");
    await new Promise((r) => setTimeout(r, 100));
    const closing = closer.close();
    expect(closer.stopping).toBe(true);
    await expect(get(port, "/new")).rejects.toThrow(/ECONNREFUSED/);
    const res = await inFlight;
    expect(res).toMatchObject({ status: 200, body: "finished", connection: "close" });
    expect(await closing).toEqual({ forced: false });
  });

  it("cuts requests that outlast the grace period", async () => {
    const { closer, port } = await listen(10_000);
    const inFlight = get(port, "/too-slow").catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    expect(await closer.close()).toEqual({ forced: true });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(await inFlight).toBeInstanceOf(Error);
  });
});
