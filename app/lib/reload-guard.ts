/** Spec 4/9: a page reloads by itself at most once per path within this window. */
export const RELOAD_GUARD_MS = 10_000;

const STORAGE_KEY = "inkwell.reloads";

/** When each path last reloaded by itself (ms since the epoch). */
export type ReloadRecord = Record<string, number>;

/**
 * Whether `path` may reload now, and the record to keep. Entries older than the
 * window are dropped, so the record stays small.
 */
export function decideReload(
  record: ReloadRecord,
  path: string,
  now: number,
  windowMs = RELOAD_GUARD_MS,
): { allowed: boolean; record: ReloadRecord } {
  const kept: ReloadRecord = {};
  for (const [p, at] of Object.entries(record)) {
    if (now - at >= 0 && now - at < windowMs) kept[p] = at;
  }
  if (path in kept) return { allowed: false, record: kept };
  return { allowed: true, record: { ...kept, [path]: now } };
}

/** Parses the stored record; anything malformed counts as empty. */
export function parseReloadRecord(raw: string | null): ReloadRecord {
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    const record: ReloadRecord = {};
    for (const [p, at] of Object.entries(value)) if (typeof at === "number") record[p] = at;
    return record;
  } catch {
    return {};
  }
}

/**
 * Browser only: records a self-triggered load of `path` in sessionStorage and says
 * whether it may happen. Without storage it refuses, so a loop cannot start.
 */
export function claimReload(path: string, now = Date.now()): boolean {
  try {
    const { allowed, record } = decideReload(parseReloadRecord(sessionStorage.getItem(STORAGE_KEY)), path, now);
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(record));
    return allowed;
  } catch {
    return false;
  }
}
