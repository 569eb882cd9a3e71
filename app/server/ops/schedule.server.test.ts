import * as fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenDatabase, openDatabase } from "../db/db.server.ts";
import { migrateToLatest } from "../db/migrate.server.ts";
import { parseBackupSchedule, parseEnv } from "../platform/env.server.ts";
import { createLocalStorage } from "../storage/local.server.ts";
import type { SiteTarget } from "./backup-format.server.ts";
import {
  backupFileName,
  isBackupDue,
  listScheduledBackups,
  pruneBackups,
  startScheduledBackups,
} from "./schedule.server.ts";

let root: string;

beforeAll(async () => {
  root = await fsp.mkdtemp(path.join(os.tmpdir(), "inkwell-schedule-test-"));
});
afterAll(async () => {
  await fsp.rm(root, { recursive: true, force: true });
});

describe("BACKUP_CRON", () => {
  it("accepts a daily UTC time or an interval, nothing else", () => {
    expect(parseBackupSchedule("03:30")).toEqual({ kind: "daily", hour: 3, minute: 30 });
    expect(parseBackupSchedule("6h")).toEqual({ kind: "every", ms: 6 * 3_600_000 });
    expect(parseBackupSchedule("90m")).toEqual({ kind: "every", ms: 90 * 60_000 });
    expect(parseBackupSchedule("1d")).toEqual({ kind: "every", ms: 86_400_000 });
    for (const bad of ["24:00", "3:60", "0m", "31d", "0 3 * * *", "6x", ""])
      expect(parseBackupSchedule(bad)).toBeNull();
  });

  it("is checked at start, with BACKUP_KEEP and BACKUP_DIR", () => {
    const base = { DATA_DIR: root, AUTH_SECRET: "x".repeat(32) };
    expect(() => parseEnv({ ...base, BACKUP_CRON: "every night" })).toThrow(/^BACKUP_CRON:/);
    expect(() => parseEnv({ ...base, BACKUP_KEEP: "0" })).toThrow(/^BACKUP_KEEP:/);
    const env = parseEnv({ ...base, BACKUP_CRON: "02:15", BACKUP_KEEP: "3" });
    expect(env.backup).toEqual({
      schedule: { kind: "daily", hour: 2, minute: 15 },
      keep: 3,
      dir: path.join(path.resolve(root), "backups"),
    });
    expect(parseEnv(base).backup.schedule).toBeNull();
  });
});

describe("when a backup is due", () => {
  const at = (iso: string) => new Date(iso);
  it("every N: once the interval has passed since the last one", () => {
    const every6h = { kind: "every", ms: 6 * 3_600_000 } as const;
    expect(isBackupDue(every6h, null, at("2026-11-23T01:00:00Z"))).toBe(true);
    expect(isBackupDue(every6h, at("2026-11-23T00:00:00Z"), at("2026-11-23T05:59:00Z"))).toBe(false);
    expect(isBackupDue(every6h, at("2026-11-23T00:00:00Z"), at("2026-11-23T06:00:00Z"))).toBe(true);
  });

  it("daily: once per day after its time, and not at once on a first start long after it", () => {
    const daily = { kind: "daily", hour: 3, minute: 0 } as const;
    expect(isBackupDue(daily, at("2026-11-22T03:00:05Z"), at("2026-11-23T02:59:00Z"))).toBe(false);
    expect(isBackupDue(daily, at("2026-11-22T03:00:05Z"), at("2026-11-23T03:00:30Z"))).toBe(true);
    expect(isBackupDue(daily, at("2026-11-23T03:00:05Z"), at("2026-11-23T18:00:00Z"))).toBe(false);
    expect(isBackupDue(daily, null, at("2026-11-23T03:01:00Z"))).toBe(true);
    expect(isBackupDue(daily, null, at("2026-11-23T18:00:00Z"))).toBe(false);
  });
});

describe("retention", () => {
  it("keeps the BACKUP_KEEP newest scheduled backups and touches nothing else", async () => {
    const dir = path.join(root, "keep");
    await fsp.mkdir(dir);
    const times = [1, 5, 3, 4, 2].map((d) => new Date(Date.UTC(2026, 10, d, 3, 0, 0)));
    for (const t of times) await fsp.writeFile(path.join(dir, backupFileName(t)), "x");
    await fsp.writeFile(path.join(dir, "my-own-copy.tar.gz"), "mine");
    const removed = await pruneBackups(dir, 2);
    expect(removed.map((f) => path.basename(f)).sort()).toEqual([
      "inkwell-backup-20261101T030000Z.tar.gz",
      "inkwell-backup-20261102T030000Z.tar.gz",
      "inkwell-backup-20261103T030000Z.tar.gz",
    ]);
    expect((await fsp.readdir(dir)).sort()).toEqual([
      "inkwell-backup-20261104T030000Z.tar.gz",
      "inkwell-backup-20261105T030000Z.tar.gz",
      "my-own-copy.tar.gz",
    ]);
  });
});

describe("the scheduler", () => {
  let database: OpenDatabase;
  let site: SiteTarget;
  beforeAll(async () => {
    const dataDir = path.join(root, "site");
    site = {
      database: { dialect: "sqlite", file: path.join(dataDir, "inkwell.db") },
      storage: createLocalStorage(path.join(dataDir, "uploads")),
      dataDir,
    };
    database = openDatabase(site.database);
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it("backs up on the lease holder only, and prunes to BACKUP_KEEP", async () => {
    const dir = path.join(root, "scheduled");
    await fsp.mkdir(dir);
    // An older backup that retention (keep 1) must remove once the new one exists.
    await fsp.writeFile(path.join(dir, backupFileName(new Date("2026-01-01T00:00:00Z"))), "old");
    const lines: string[] = [];
    const log = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const opts = { schedule: { kind: "every", ms: 3_600_000 } as const, dir, keep: 1, checkMs: 3_600_000 };
    const a = startScheduledBackups(site, database, log, { ...opts, holder: "instance-a" });
    const b = startScheduledBackups(site, database, log, { ...opts, holder: "instance-b" });
    await Promise.all([a.idle(), b.idle()]);
    await Promise.all([a.stop(), b.stop()]);
    // Both instances were due; only the lease holder wrote a backup.
    expect(lines.filter((l) => l.includes("scheduled backup written"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("failed"))).toEqual([]);
    const left = await listScheduledBackups(dir);
    expect(left).toHaveLength(1);
    expect(Date.now() - (left[0]?.at.getTime() ?? 0)).toBeLessThan(60_000);
    expect((await fsp.stat(left[0]?.file ?? "")).size).toBeGreaterThan(100);
  });
});
