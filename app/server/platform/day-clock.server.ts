/**
 * Today's UTC day (`YYYY-MM-DD`) from `now`, worked out again only when the clock leaves
 * the day: the read counters ask for every request, and formatting a date each time is a
 * measurable share of a cached page.
 */
export function dayClock(now: () => Date = () => new Date()): () => string {
  let start = 0;
  let end = 0;
  let day = "";
  return () => {
    const at = now().getTime();
    if (at < start || at >= end) {
      day = new Date(at).toISOString().slice(0, 10);
      start = Date.parse(`${day}T00:00:00.000Z`);
      end = start + 86_400_000;
    }
    return day;
  };
}
