import * as fsp from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import type { OpenDatabase } from "../db/db.server.ts";
import { acquireLease, INSTANCE_ID, releaseLease } from "../jobs/lease.server.ts";
import type { BackupSchedule } from "../platform/env.server.ts";
import { createBackup } from "./backup.server.ts";
import type { SiteTarget } from "./backup-format.server.ts";

/** Scheduled backups are named by their UTC time, so names sort as times do. */
const NAME = /^inkwell-backup-(\d{8}T\d{6}Z)\.tar\.gz$/;

export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "");
  return `inkwell-backup-${stamp}.tar.gz`;
}

function timeOf(name: string): Date | null {
  const m = NAME.exec(name);
  if (!m?.[1]) return null;
  const s = m[1];
  return new Date(
    `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}Z`,
  );
}

/** The scheduled backups in `dir`, newest first (other files are never touched). */
export async function listScheduledBackups(dir: string): Promise<Array<{ file: string; at: Date }>> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return [];
    throw error;
  }
  return names
    .flatMap((name) => {
      const at = timeOf(name);
      return at ? [{ file: path.join(dir, name), at }] : [];
    })
    .sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Deletes all but the `keep` newest scheduled backups; returns the files removed. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listScheduledBackups(dir)).slice(Math.max(1, keep));
  for (const { file } of old) await fsp.rm(file, { force: true });
  return old.map((b) => b.file);
}

/** The latest moment at or before `now` when a backup was due. */
function lastSlot(schedule: BackupSchedule, now: Date): Date | null {
  if (schedule.kind === "every") return null;
  const slot = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), schedule.hour, schedule.minute),
  );
  if (slot.getTime() > now.getTime()) slot.setUTCDate(slot.getUTCDate() - 1);
  return slot;
}

/** True when a backup should run now, given when the last one was made (null: never). */
export function isBackupDue(schedule: BackupSchedule, last: Date | null, now: Date): boolean {
  if (schedule.kind === "every") return last === null || now.getTime() - last.getTime() >= schedule.ms;
  const slot = lastSlot(schedule, now);
  // A daily schedule with no backup yet waits for its first slot rather than firing at start.
  if (last === null) return slot !== null && now.getTime() - slot.getTime() < 60 * 60_000;
  return slot !== null && last.getTime() < slot.getTime();
}

/** Makes one scheduled backup now, then prunes the old ones. */
export async function runScheduledBackup(
  site: SiteTarget,
  database: OpenDatabase,
  opts: { dir: string; keep: number; now?: Date },
): Promise<{ file: string; removed: string[] }> {
  const now = opts.now ?? new Date();
  const file = path.join(opts.dir, backupFileName(now));
  await createBackup(site, database, file, { now });
  const removed = await pruneBackups(opts.dir, opts.keep);
  return { file, removed };
}

export const BACKUP_LEASE = "scheduled-backup";
/** Long enough to cover a slow backup; a crashed holder is replaced after this. */
const BACKUP_LEASE_MS = 30 * 60_000;

export interface BackupScheduler {
  stop(): Promise<void>;
  /** The run in progress, if any (tests). */
  idle(): Promise<void>;
}

/**
 * Checks every `checkMs` whether a backup is due and, on the one instance holding
 * the backup lease, makes it. Due-ness comes from the newest file in the backup
 * folder, so a restart neither repeats nor skips a backup.
 */
export function startScheduledBackups(
  site: SiteTarget,
  database: OpenDatabase,
  log: Logger,
  opts: { schedule: BackupSchedule; dir: string; keep: number; checkMs?: number; holder?: string },
): BackupScheduler {
  const holder = opts.holder ?? INSTANCE_ID;
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped || running) return;
    running = (async () => {
      if (!(await acquireLease(database.db, BACKUP_LEASE, holder, BACKUP_LEASE_MS))) return;
      const now = new Date();
      const last = (await listScheduledBackups(opts.dir))[0]?.at ?? null;
      if (!isBackupDue(opts.schedule, last, now)) return;
      const started = Date.now();
      const { file, removed } = await runScheduledBackup(site, database, { dir: opts.dir, keep: opts.keep, now });
      log.info({ file, removed, ms: Date.now() - started }, "scheduled backup written");
    })()
      .catch((error: unknown) => log.error({ err: error }, "scheduled backup failed"))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, opts.checkMs ?? 60_000);
  timer.unref();
  return {
    idle: async () => {
      await running;
    },
    async stop() {
      // A backup in progress is not waited for (shutdown must stay quick): it fails
      // when the database closes and removes its temp files; the next holder retries.
      stopped = true;
      clearInterval(timer);
      await releaseLease(database.db, BACKUP_LEASE, holder).catch(() => {});
    },
  };
}
