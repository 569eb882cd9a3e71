import type { Address } from "@solana/kit";
import { type AddressErrorCode, parseAddress } from "../lib/solana/address.ts";
import { SOL_DECIMALS } from "../lib/solana/amount.ts";
import type { TokenAccountInfo } from "../lib/solana/close-accounts.ts";
import { parseRecipientsCsv, payableRows, type RecipientsParseResult } from "../lib/solana/csv.ts";
import {
  estimateFees,
  type FeeEstimate,
  MAX_COMPUTE_UNITS,
  SIMULATION_BUDGET,
  unitLimitFor,
} from "../lib/solana/fees.ts";
import { type ComputeBudget, compileUnsignedTransaction, WALLET_HEADROOM_SIZE } from "../lib/solana/pack.ts";
import {
  type BalanceProblem,
  balanceProblems,
  isTokenProgram,
  type MintIssueCode,
  mintIssues,
  planTransfers,
  recipientTokenAccounts,
  rowsBelowRentExemption,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferAsset,
  type TransferContext,
  type TransferCost,
  transferCost,
} from "../lib/solana/transfer-plan.ts";
import type { BatchDraft } from "./batch-state.ts";
import { latestBlockhash, recentFeeEstimate, type SolanaRpc, simulate } from "./rpc.ts";

/** A recipient list checked against the network: what "Sign all and send" would send and cost. */
export interface CheckedBatch {
  parsed: RecipientsParseResult;
  asset: TransferAsset;
  ctx: TransferContext;
  plan: ReturnType<typeof planTransfers>;
  belowRent: number[];
  /** The mint's extensions this tool cannot send safely (or warns about). */
  mintIssues: MintIssueCode[];
  /** Each transaction's compute-unit limit, from its simulation. */
  unitLimits: number[];
  /** Price levels from recent fees on the accounts the batch writes. */
  fees: FeeEstimate;
  /** A transaction whose simulation failed: the batch cannot be sent as it is. */
  simulationFailure: { txIndex: number; err: unknown; logs: readonly string[] } | null;
  /** What the cost is computed from once a price is chosen. */
  accountRent: bigint;
  balances: { lamports: bigint; tokenBalance: bigint | undefined };
}

/** The batch's cost and balance problems at a price per compute unit (null: no usable price). */
export function costAt(
  checked: CheckedBatch,
  unitPrice: bigint | null,
): { cost: TransferCost; problems: BalanceProblem[]; budgets: ComputeBudget[] } {
  const budgets = checked.unitLimits.map((unitLimit) => ({ unitLimit, unitPrice: unitPrice ?? 0n }));
  const rows = payableRows(checked.parsed);
  const cost = transferCost(checked.plan, rows, checked.asset, { accountRent: checked.accountRent, budgets });
  return { cost, problems: balanceProblems(cost, checked.asset, checked.balances), budgets };
}

/** Why a list could not be checked: a message in the solana namespace. */
export type CheckRefusal = { ok: false; key: "batch.mintNotFound" | `codes.${AddressErrorCode}` };

export type CheckResult = { ok: true; checked: CheckedBatch } | CheckRefusal;

async function tokenAsset(
  rpc: SolanaRpc,
  mintInput: string,
  tokens: readonly TokenAccountInfo[],
): Promise<{ ok: true; asset: TransferAsset; issues: MintIssueCode[] } | CheckRefusal> {
  const mint = parseAddress(mintInput);
  if (!mint.ok) return { ok: false, key: `codes.${mint.code}` };
  const { value } = await rpc.getAccountInfo(mint.address, { encoding: "jsonParsed" }).send();
  const data = value?.data as
    | { parsed?: { type?: string; info?: { decimals?: number; extensions?: { extension: string }[] } } }
    | undefined;
  const info = data?.parsed?.type === "mint" ? data.parsed.info : undefined;
  if (!value || !info || typeof info.decimals !== "number" || !isTokenProgram(value.owner)) {
    return { ok: false, key: "batch.mintNotFound" };
  }
  const source = tokens.filter((a) => a.mint === mint.address).sort((a, b) => (b.amount > a.amount ? 1 : -1))[0];
  if (!source) return { ok: false, key: "batch.mintNotFound" };
  return {
    ok: true,
    asset: {
      kind: "token",
      mint: mint.address,
      decimals: info.decimals,
      tokenProgram: value.owner,
      source: source.address,
    },
    issues: mintIssues((info.extensions ?? []).map((e) => e.extension)),
  };
}

/** Lamports held by each recipient, read 100 accounts at a time. */
async function balancesOf(rpc: SolanaRpc, recipients: readonly Address[]): Promise<Map<Address, bigint>> {
  const balances = new Map<Address, bigint>();
  for (let i = 0; i < recipients.length; i += 100) {
    const chunk = recipients.slice(i, i + 100);
    const { value } = await rpc.getMultipleAccounts(chunk, { encoding: "base64" }).send();
    for (const [j, a] of chunk.entries()) balances.set(a, value[j]?.lamports ?? 0n);
  }
  return balances;
}

/**
 * Parses the draft's list, plans its transactions and reads from the network what the plan
 * needs: the mint, which recipients' token accounts exist, rent, the sender's balances.
 * Nothing is signed or sent. Network errors are thrown to the caller.
 */
export async function checkBatch(
  rpc: SolanaRpc,
  sender: Address,
  draft: BatchDraft,
  tokens: readonly TokenAccountInfo[],
): Promise<CheckResult> {
  let asset: TransferAsset = { kind: "sol" };
  let issues: MintIssueCode[] = [];
  if (draft.assetKind === "token") {
    const found = await tokenAsset(rpc, draft.mintInput, tokens);
    if (!found.ok) return found;
    asset = found.asset;
    issues = found.issues;
  }
  const decimals = asset.kind === "sol" ? SOL_DECIMALS : asset.decimals;
  const parsed = parseRecipientsCsv(draft.text, { decimals, sender, mint: asset.kind === "token" ? asset.mint : null });
  const rows = payableRows(parsed);
  const nothing = { unitLimits: [], simulationFailure: null, accountRent: 0n, fees: estimateFees([]) };
  const base = { parsed, asset, mintIssues: issues, ...nothing };
  if (!parsed.ok || rows.length === 0) {
    const plan = { transactions: [], newAccounts: [] };
    return {
      ok: true,
      checked: {
        ...base,
        ctx: { sender, asset },
        plan,
        belowRent: [],
        balances: { lamports: 0n, tokenBalance: undefined },
      },
    };
  }
  let ctx: TransferContext = { sender, asset };
  let accountRent = 0n;
  if (asset.kind === "token") {
    const tokenAccounts = await recipientTokenAccounts(
      rows.map((r) => r.address),
      asset.mint,
      asset.tokenProgram,
    );
    const list = [...new Set(tokenAccounts.values())];
    const { value } = await rpc.getMultipleAccounts(list, { encoding: "base64" }).send();
    const existingAccounts = new Set(list.filter((_, i) => value[i] !== null));
    ctx = { sender, asset, tokenAccounts, existingAccounts };
    const size = asset.tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? 170n : 165n;
    accountRent = await rpc.getMinimumBalanceForRentExemption(size).send();
  }
  // Packed with the two compute-budget instructions in, so their bytes are counted.
  const plan = planTransfers(ctx, rows, { maxBytes: WALLET_HEADROOM_SIZE, computeBudget: SIMULATION_BUDGET });
  const { value: lamports } = await rpc.getBalance(sender, { commitment: "confirmed" }).send();
  const tokenBalance = asset.kind === "token" ? tokens.find((a) => a.address === asset.source)?.amount : undefined;
  const belowRent =
    asset.kind === "sol"
      ? rowsBelowRentExemption(rows, await balancesOf(rpc, [...new Set(rows.map((r) => r.address))]))
      : [];
  const checked: CheckedBatch = {
    ...base,
    ctx,
    plan,
    belowRent,
    accountRent,
    balances: { lamports, tokenBalance },
    fees: await feesFor(rpc, ctx, rows),
  };
  // Without a price the balance already falls short, or a recipient cannot be paid: the
  // simulations would only fail for the reasons shown.
  if (belowRent.length > 0 || costAt(checked, 0n).problems.length > 0) return { ok: true, checked };
  return { ok: true, checked: { ...checked, ...(await simulatePlan(rpc, sender, plan)) } };
}

/** Price levels for the accounts the batch writes; the floors when the RPC cannot tell. */
async function feesFor(
  rpc: SolanaRpc,
  ctx: TransferContext,
  rows: readonly { address: Address }[],
): Promise<FeeEstimate> {
  const writable: Address[] = [ctx.sender];
  if (ctx.asset.kind === "sol") writable.push(...rows.map((r) => r.address));
  else writable.push(ctx.asset.source, ...(ctx.tokenAccounts ? [...ctx.tokenAccounts.values()] : []));
  try {
    return await recentFeeEstimate(rpc, writable);
  } catch {
    return estimateFees([]);
  }
}

/**
 * Simulates every planned transaction at the maximum limit: each one's limit is then what it
 * consumed plus a margin. The first failure stops (nothing is signed on a failed simulation).
 */
async function simulatePlan(
  rpc: SolanaRpc,
  sender: Address,
  plan: ReturnType<typeof planTransfers>,
): Promise<Pick<CheckedBatch, "unitLimits" | "simulationFailure">> {
  const lifetime = await latestBlockhash(rpc);
  const unitLimits: number[] = [];
  for (const [txIndex, planned] of plan.transactions.entries()) {
    const tx = compileUnsignedTransaction(
      planned.instructions,
      { feePayer: sender, computeBudget: SIMULATION_BUDGET },
      lifetime,
    );
    const result = await simulate(rpc, tx);
    if (result.error) return { unitLimits: [], simulationFailure: { txIndex, err: result.err, logs: result.logs } };
    // An RPC that does not report units: the default the network would allow this many instructions.
    unitLimits.push(
      unitLimitFor(result.unitsConsumed ?? Math.min(MAX_COMPUTE_UNITS, 200_000 * planned.instructions.length)),
    );
  }
  return { unitLimits, simulationFailure: null };
}
