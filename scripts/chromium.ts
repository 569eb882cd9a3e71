/**
 * Flags for every Chromium the project starts (browser tests, Lighthouse): no
 * sandbox (root in a container), no GPU, and no connections of Chromium's own.
 */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
] as const;
