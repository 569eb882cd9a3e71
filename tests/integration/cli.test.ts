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

  it("adds, lists and removes admins by normalised e-mail, keeping the last one", () => {
    expect(cli("admin", "add", "  Boss@Example.TEST ")).toEqual({ code: 0, out: "added admin boss@example.test\n" });
    expect(cli("admin", "add", "boss@example.test").out).toBe("boss@example.test is already an admin\n");
    expect(cli("admin", "add", "second@example.test").code).toBe(0);
    const list = cli("admin", "list");
    expect(list.out).toMatch(/^boss@example\.test\tcli\t\d{4}-/m);
    expect(list.out).toMatch(/^second@example\.test\tcli\t/m);
    expect(cli("admin", "remove", "SECOND@example.test")).toEqual({
      code: 0,
      out: "removed admin second@example.test\n",
    });
    const last = cli("admin", "remove", "boss@example.test");
    expect(last.code).toBe(2);
    expect(last.out).toContain("last admin");
    expect(cli("admin", "remove", "boss@example.test", "--force").code).toBe(0);
    expect(cli("admin", "list").out).toBe("no admins yet\n");
  });

  it("refuses an admin command without a valid e-mail", () => {
    expect(cli("admin", "add", "not-an-email").code).toBe(2);
    expect(cli("admin", "frob").code).toBe(2);
  });

  it("rejects an unknown command with the help text", () => {
    const { code, out } = cli("frobnicate");
    expect(code).toBe(2);
    expect(out).toContain("unknown command: frobnicate");
  });
});
