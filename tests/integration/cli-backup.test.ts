import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db/db.server.ts";
import { countRows } from "../../app/server/ops/tables.server.ts";
import { parseDatabaseUrl } from "../../app/server/platform/env.server.ts";
import { repoRoot, tempDataDir } from "../setup/server-process.ts";
import { createServerDatabaseUrl, testDialect } from "../setup/test-db.ts";

interface Place {
  dataDir: string;
  url: string;
  cleanup(): Promise<void>;
}

async function newPlace(): Promise<Place> {
  const dataDir = tempDataDir();
  const database = await createServerDatabaseUrl(dataDir);
  return { dataDir, url: database.url, cleanup: database.cleanup };
}

function cli(place: Place, ...args: string[]) {
  const result = spawnSync(process.execPath, ["scripts/cli.ts", ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATA_DIR: place.dataDir,
      DATABASE_URL: place.url,
      LOG_LEVEL: "silent",
    },
  });
  return { code: result.status, out: `${result.stdout}${result.stderr}` };
}

async function adminCount(place: Place): Promise<number> {
  const opened = openDatabase(parseDatabaseUrl(place.url, place.dataDir), { poolMax: 1 });
  try {
    return await countRows(opened.db, "admins");
  } finally {
    await opened.close();
  }
}

let source: Place;
let target: Place;

beforeAll(async () => {
  source = await newPlace();
  target = await newPlace();
});
afterAll(async () => {
  await source.cleanup();
  await target.cleanup();
});

describe(`npm run cli -- backup / restore (${testDialect()})`, () => {
  it("backs up, restores into an empty place, then refuses a filled place and a damaged archive", () => {
    const archive = path.join(source.dataDir, "site.tar.gz");
    expect(cli(source, "admin", "add", "boss@example.test").code).toBe(0);
    const backup = cli(source, "backup", archive);
    expect(backup.out).toMatch(/^backup written to .*site\.tar\.gz: \w+ database \(\d+ rows\), 0 file\(s\)$/m);
    expect(backup.code).toBe(0);

    const restored = cli(target, "restore", archive);
    expect(restored.out).toMatch(/^restored .*site\.tar\.gz/m);
    expect(restored.code).toBe(0);

    const again = cli(target, "restore", archive);
    expect(again.code).toBe(2);
    expect(again.out).toContain("restore refused: the target is not empty");

    const truncated = path.join(source.dataDir, "truncated.tar.gz");
    const bytes = readFileSync(archive);
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 100));
    const bad = cli(target, "restore", truncated, "--force");
    expect(bad.code).toBe(2);
    expect(bad.out).toContain("restore refused: damaged archive");
  });

  it("restored what was backed up", async () => {
    expect(await adminCount(target)).toBe(1);
    expect(await adminCount(target)).toBe(await adminCount(source));
  });
});
