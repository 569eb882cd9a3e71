import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, startServer, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

const PROBE = ["--import", "./tests/setup/stripper-probe.js"];

/** `npm start`'s command from package.json, as Node's options and the script. */
function npmStartCommand(): { nodeArgs: string[]; entry: string } {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { scripts: { start: string } };
  const [bin, ...rest] = pkg.scripts.start.trim().split(/\s+/);
  expect(bin).toBe("node");
  const entry = rest.pop();
  if (!entry) throw new Error("package.json's start script names no entry");
  return { nodeArgs: rest, entry };
}

/**
 * Starts `entry` with the stripper probe, reads a few pages (routes load their chunks
 * on first use), stops it with SIGTERM and returns the stripper's modules it loaded.
 */
async function stripperModulesOf(entry: string, nodeArgs: string[]): Promise<string[]> {
  const dataDir = tempDataDir();
  const probeFile = path.join(dataDir, "stripper.json");
  const database = await createServerDatabaseUrl(dataDir);
  try {
    const server = await startServer(
      { DATA_DIR: dataDir, DATABASE_URL: database.url, STRIPPER_PROBE_FILE: probeFile },
      { entry, nodeArgs },
    );
    for (const page of ["/en", "/zh", "/en/search?q=inkwell", "/no-such-page", "/feed.xml"]) {
      const res = await fetch(`${server.url}${page}`);
      await res.arrayBuffer();
      expect(res.status, page).toBeLessThan(500);
    }
    const { code } = await server.stop("SIGTERM");
    expect(code, server.output()).toBe(0);
    return JSON.parse(readFileSync(probeFile, "utf8")) as string[];
  } finally {
    await database.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe(`the process \`npm start\` serves from (${testDialect()})`, () => {
  it("never loads Node's TypeScript stripper", async () => {
    const { nodeArgs, entry } = npmStartCommand();
    expect(await stripperModulesOf(entry, [...PROBE, ...nodeArgs])).toEqual([]);
  });

  it("is told apart from a process that runs TypeScript (server.ts from the source)", async () => {
    expect(await stripperModulesOf("server.ts", PROBE)).toContainEqual(expect.stringContaining("amaro"));
  });
});
