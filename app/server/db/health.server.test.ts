import pino from "pino";
import { describe, expect, it } from "vitest";
import type { DB } from "./db.server.ts";
import { createDatabaseHealth, isDatabaseUnavailable } from "./health.server.ts";

const withCode = (code: string, message = "boom") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises unreachable databases, also wrapped", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("SQLITE_CANTOPEN"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("wrapped", { cause: withCode("ECONNRESET") }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode("ECONNREFUSED")], "all failed"))).toBe(true);
  });

  it("leaves query errors, constraints and busy databases alone", () => {
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("42P01", "relation does not exist"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("SQLITE_CONSTRAINT_UNIQUE"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("SQLITE_BUSY"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("something else"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

describe("createDatabaseHealth", () => {
  it("goes down on an unreachable error, probes, and comes back when a probe succeeds", async () => {
    let answers = false;
    let probes = 0;
    const health = createDatabaseHealth({} as DB, pino({ level: "silent" }), {
      probeIntervalMs: 20,
      ping: async () => {
        probes++;
        return answers;
      },
    });
    try {
      expect(health.isDown()).toBe(false);
      expect(health.noteError(withCode("23505"))).toBe(false);
      expect(health.isDown()).toBe(false);
      expect(health.noteError(withCode("ECONNREFUSED"))).toBe(true);
      expect(health.isDown()).toBe(true);
      await expect.poll(() => probes, { timeout: 1000, interval: 10 }).toBeGreaterThanOrEqual(2);
      expect(health.isDown()).toBe(true);
      answers = true;
      await expect.poll(() => health.isDown(), { timeout: 1000, interval: 10 }).toBe(false);
      const after = probes;
      await new Promise((r) => setTimeout(r, 100));
      expect(probes).toBe(after);
    } finally {
      health.stop();
    }
  });
});
