// Packages the reading pages never need (the importers' parsers, the upload parser, the
// database driver of the other dialect) are imported the first time they are used, not at
// boot: the server bundle keeps node_modules external, so a static import anywhere in the
// server loads the package when the server starts (decision 024, "Memory and uncached speed").

export interface LazyModule<T> {
  /** The module, imported on the first call; later calls share that import. */
  (): Promise<T>;
  /** Whether the module has been imported in this process (tests). */
  loaded(): boolean;
}

/**
 * Wraps a dynamic `import()` so it runs once, on first use. Concurrent callers share one
 * import; a failed import rejects every caller waiting on it and is tried again on the next
 * call, so a passing fault (a file being replaced while the server upgrades) does not stay.
 */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | null = null;
  let done = false;
  const get = (): Promise<T> => {
    if (loading) return loading;
    const attempt = load().then(
      (mod) => {
        done = true;
        return mod;
      },
      (error: unknown) => {
        if (loading === attempt) loading = null;
        throw error;
      },
    );
    loading = attempt;
    return attempt;
  };
  return Object.assign(get, { loaded: () => done });
}
