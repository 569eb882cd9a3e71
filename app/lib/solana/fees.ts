/**
 * Priority fees and compute limits for the transactions the /solana tools send. A transaction
 * with no compute-unit price waits behind every paying one and, on a busy network, expires
 * before it lands; one with the default limit (200,000 units per instruction) pays its price on
 * units it never uses. So each transaction gets:
 * - a compute-unit limit from its own simulation: the units it consumed plus a margin;
 * - a price per unit from a level the reader picks, estimated from the fees recently paid to
 *   write the same accounts (`getRecentPrioritizationFees`), or a custom value.
 */
import type { ComputeBudget } from "./pack.ts";

export type FeeLevel = "normal" | "fast" | "turbo" | "custom";
export const FEE_LEVELS: readonly FeeLevel[] = ["normal", "fast", "turbo", "custom"];

/** Micro-lamports per compute unit for each estimated level. */
export type FeeEstimate = Record<Exclude<FeeLevel, "custom">, bigint>;

/** The most a transaction may ask for. */
export const MAX_COMPUTE_UNITS = 1_400_000;
/** Simulated at this limit, so a simulation never fails for want of units. */
export const SIMULATION_BUDGET: ComputeBudget = { unitLimit: MAX_COMPUTE_UNITS, unitPrice: 1n };

/**
 * Lowest price per level, in micro-lamports per unit: an idle network (or a local one) reports
 * zeros, and a price of 0 is no priority at all. At 30,000 units these cost 30, 300 and 3,000
 * lamports per transaction.
 */
const FLOORS: FeeEstimate = { normal: 1_000n, fast: 10_000n, turbo: 100_000n };
/** Percentile of recent fees each level pays. */
const PERCENTILES = { normal: 50, fast: 75, turbo: 95 } as const;
/** The largest custom price taken: 0.01 SOL per million units (10,000 lamports per 1,000 units). */
export const MAX_CUSTOM_PRICE = 10_000_000n;

function percentile(sorted: readonly bigint[], p: number): bigint {
  if (sorted.length === 0) return 0n;
  const rank = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, rank)] ?? 0n;
}

/**
 * Levels from `getRecentPrioritizationFees` (one entry per recent slot). Each level is at least
 * its floor and at least the level below it.
 */
export function estimateFees(recent: readonly { prioritizationFee: number | bigint }[]): FeeEstimate {
  const sorted = recent.map((r) => BigInt(r.prioritizationFee)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const max = (a: bigint, b: bigint) => (a > b ? a : b);
  const normal = max(FLOORS.normal, percentile(sorted, PERCENTILES.normal));
  const fast = max(max(FLOORS.fast, percentile(sorted, PERCENTILES.fast)), normal);
  const turbo = max(max(FLOORS.turbo, percentile(sorted, PERCENTILES.turbo)), fast);
  return { normal, fast, turbo };
}

/**
 * A transaction's limit from the units its simulation consumed: 15% more plus 1,000 (what
 * runs may differ slightly from the simulation), within the network's maximum.
 */
export function unitLimitFor(unitsConsumed: number): number {
  const margin = Math.ceil(unitsConsumed * 1.15) + 1_000;
  return Math.min(MAX_COMPUTE_UNITS, Math.max(margin, 1_000));
}

/** Lamports a transaction pays for its priority: price × limit, rounded up to a whole lamport. */
export function priorityFeeLamports(budget: ComputeBudget): bigint {
  return (budget.unitPrice * BigInt(budget.unitLimit) + 999_999n) / 1_000_000n;
}

/** A custom price as typed (whole micro-lamports per unit), or null when it is not one. */
export function parseCustomPrice(text: string): bigint | null {
  const trimmed = text.trim();
  if (!/^\d{1,12}$/.test(trimmed)) return null;
  const value = BigInt(trimmed);
  return value <= MAX_CUSTOM_PRICE ? value : null;
}

/** The price the reader chose, or null when the custom value is not usable. */
export function chosenPrice(level: FeeLevel, estimate: FeeEstimate, customText: string): bigint | null {
  return level === "custom" ? parseCustomPrice(customText) : estimate[level];
}

/** Recent fees are looked up for at most this many accounts (the RPC's limit). */
export const FEE_ACCOUNTS_MAX = 128;
