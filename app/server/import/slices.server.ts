// Statement sizes the import's reads and writes share.

/** Rows per multi-row insert or `in (…)` list of a chunk (12 values a row at most: far below both databases' limits). */
export const ROWS_PER_STATEMENT = 100;

/** Runs `each` on consecutive slices of `items`, ROWS_PER_STATEMENT at most, one after another. */
export async function inSlices<T>(items: readonly T[], each: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += ROWS_PER_STATEMENT) await each(items.slice(i, i + ROWS_PER_STATEMENT));
}
