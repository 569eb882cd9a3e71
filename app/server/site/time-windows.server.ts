/** A row shown only inside its time window (slides, ads): either end may be open. */
export interface Windowed {
  startsAt: string | null;
  endsAt: string | null;
}

/**
 * Splits rows that have not ended by `now` into those showing now, and the earliest
 * moment after `now` at which one of them starts or ends: a page that shows them is
 * only good until then (the render cache expires it at that time).
 */
export function splitByWindow<T extends Windowed>(
  rows: readonly T[],
  now: string,
): { active: T[]; nextChange: string | null } {
  const active: T[] = [];
  let nextChange: string | null = null;
  const consider = (at: string | null) => {
    if (at !== null && at > now && (nextChange === null || at < nextChange)) nextChange = at;
  };
  for (const row of rows) {
    if (row.endsAt !== null && row.endsAt <= now) continue;
    consider(row.startsAt);
    consider(row.endsAt);
    if (row.startsAt === null || row.startsAt <= now) active.push(row);
  }
  return { active, nextChange };
}
