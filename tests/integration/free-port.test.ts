import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { freePort } from "../setup/server-process.ts";

// The ports test servers are started on (tests/setup/server-process.ts): never one the
// kernel gives outgoing connections, never the same one twice while a run lasts.
describe("freePort", () => {
  it("hands out distinct ports below the ephemeral range, each marked for other processes", async () => {
    const ports = await Promise.all(Array.from({ length: 40 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      expect(existsSync(path.join(tmpdir(), "inkwell-test-ports", String(port)))).toBe(true);
    }
  });
});
