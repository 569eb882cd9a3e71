/**
 * The renders in progress of cacheable pages, by cache key: when many readers ask
 * for a page that is not in the render cache (after a write dropped it, or at
 * start), one renders it and the others wait for that render and are served its
 * copy, instead of each running the page's queries ("single flight").
 */
export interface RenderFlights {
  /** Resolves when the render of `key` under way ends (kept or not); null when none is. */
  pending(key: string): Promise<void> | null;
  /** Notes that this request renders `key`; call the returned function when it is done. */
  start(key: string): () => void;
  /** How many renders are under way. */
  readonly size: number;
}

export function createRenderFlights(): RenderFlights {
  const flights = new Map<string, { done: Promise<void>; end: () => void }>();
  return {
    pending(key) {
      return flights.get(key)?.done ?? null;
    },
    start(key) {
      let resolve: () => void = () => {};
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      const flight = {
        done,
        end: () => {
          // Only this flight's own end clears the key (a later one may have started).
          if (flights.get(key) === flight) flights.delete(key);
          resolve();
        },
      };
      flights.set(key, flight);
      return flight.end;
    },
    get size() {
      return flights.size;
    },
  };
}

/** Waits for `promise`, at most `ms`; true when it settled in time. */
export async function waitAtMost(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
