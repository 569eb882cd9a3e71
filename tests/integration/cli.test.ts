import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl } from "../setup/test-db.ts";

let dataDir: string;
let database: Awaited<ReturnType<typeof createServerDatabaseUrl>>;

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/cli.ts", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", DATA_DIR: dataDir, DATABASE_URL: database.url },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  dataDir = tempDataDir();
  database = await createServerDatabaseUrl(dataDir);
});
afterAll(async () => {
  await database.cleanup();
});

describe("npm run cli", () => {
  it("prints help with --help", () => {
    const { code, out } = cli("--help");
    expect(code).toBe(0);
    expect(out).toContain("Usage: npm run cli -- <command>");
    expect(out).toContain("migrate");
  });

  it("migrates, and a second run is a no-op", () => {
    const first = cli("migrate");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^applied: \d{8}T\d{6}_/);
    const second = cli("migrate");
    expect(second).toEqual({ code: 0, out: "database is up to date\n" });
    const status = cli("migrate:status");
    expect(status.out).toMatch(/^applied {2}\d{8}T\d{6}_create_posts$/m);
    expect(status.out).not.toContain("pending");
  });

  it("refuses to roll back without --yes", () => {
    const { code, out } = cli("migrate:down");
    expect(code).toBe(2);
    expect(out).toContain("--yes");
  });

  it("rejects an unknown command with the help text", () => {
    const { code, out } = cli("frobnicate");
    expect(code).toBe(2);
    expect(out).toContain("unknown command: frobnicate");
  });
});
