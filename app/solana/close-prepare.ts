import type { Address } from "@solana/kit";
import { useEffect, useRef, useState } from "react";
import { type PlannedClose, planCloseAccounts, type TokenAccountInfo } from "../lib/solana/close-accounts.ts";
import {
  estimateFees,
  type FeeEstimate,
  MAX_COMPUTE_UNITS,
  priorityFeeLamports,
  SIMULATION_BUDGET,
  unitLimitFor,
} from "../lib/solana/fees.ts";
import { compileUnsignedTransaction, WALLET_HEADROOM_SIZE } from "../lib/solana/pack.ts";
import { LAMPORTS_PER_SIGNATURE } from "../lib/solana/transfer-plan.ts";
import { latestBlockhash, recentFeeEstimate, type SolanaRpc, simulate } from "./rpc.ts";

/** The chosen accounts' close transactions, simulated: what signing them would cost. */
export interface PreparedClose {
  plans: PlannedClose[];
  /** Each transaction's compute-unit limit, from its simulation. */
  unitLimits: number[];
  fees: FeeEstimate;
  /** A transaction whose simulation failed: nothing can be closed as chosen. */
  failure: { txIndex: number; err: unknown; logs: readonly string[] } | null;
}

export async function prepareClose(
  rpc: SolanaRpc,
  owner: Address,
  picked: readonly TokenAccountInfo[],
): Promise<PreparedClose> {
  // Packed with the compute-budget instructions in, so their bytes are counted.
  const plans = planCloseAccounts(picked, owner, { maxBytes: WALLET_HEADROOM_SIZE, computeBudget: SIMULATION_BUDGET });
  const fees = await recentFeeEstimate(rpc, [owner, ...picked.map((a) => a.address)]).catch(() => estimateFees([]));
  const lifetime = await latestBlockhash(rpc);
  const unitLimits: number[] = [];
  for (const [txIndex, plan] of plans.entries()) {
    const probe = compileUnsignedTransaction(
      plan.instructions,
      { feePayer: owner, computeBudget: SIMULATION_BUDGET },
      lifetime,
    );
    const result = await simulate(rpc, probe);
    if (result.error) return { plans, unitLimits: [], fees, failure: { txIndex, err: result.err, logs: result.logs } };
    unitLimits.push(
      unitLimitFor(result.unitsConsumed ?? Math.min(MAX_COMPUTE_UNITS, 200_000 * plan.instructions.length)),
    );
  }
  return { plans, unitLimits, fees, failure: null };
}

/** Network and priority fees of the prepared transactions at a price per compute unit. */
export function closeFees(prepared: PreparedClose, unitPrice: bigint): { network: bigint; priority: bigint } {
  return {
    network: BigInt(prepared.plans.length) * LAMPORTS_PER_SIGNATURE,
    priority: prepared.unitLimits.reduce((sum, unitLimit) => sum + priorityFeeLamports({ unitLimit, unitPrice }), 0n),
  };
}

/**
 * Prepares the chosen accounts again whenever the choice changes; null while it runs (the
 * close button waits for it), and on a network error (`error` then says why).
 */
export function usePreparedClose(
  rpc: SolanaRpc,
  owner: Address | null,
  picked: readonly TokenAccountInfo[],
): { prepared: PreparedClose | null; error: unknown } {
  const [state, setState] = useState<{ key: string; prepared: PreparedClose | null; error: unknown }>({
    key: "",
    prepared: null,
    error: null,
  });
  const key = picked.map((a) => a.address).join(",");
  // Keyed by the addresses: a new array holding the same accounts is the same choice.
  const latest = useRef(picked);
  latest.current = picked;
  useEffect(() => {
    if (!owner || key === "") return;
    let current = true;
    prepareClose(rpc, owner, latest.current).then(
      (prepared) => current && setState({ key, prepared, error: null }),
      (error: unknown) => current && setState({ key, prepared: null, error }),
    );
    return () => {
      current = false;
    };
  }, [rpc, owner, key]);
  return state.key === key ? { prepared: state.prepared, error: state.error } : { prepared: null, error: null };
}
