import type { Address } from "@solana/kit";
import { type AddressErrorCode, parseAddress } from "../lib/solana/address.ts";
import { SOL_DECIMALS } from "../lib/solana/amount.ts";
import type { TokenAccountInfo } from "../lib/solana/close-accounts.ts";
import { parseRecipientsCsv, payableRows, type RecipientsParseResult } from "../lib/solana/csv.ts";
import { WALLET_HEADROOM_SIZE } from "../lib/solana/pack.ts";
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
import type { SolanaRpc } from "./rpc.ts";

/** A recipient list checked against the network: what "Sign all and send" would send and cost. */
export interface CheckedBatch {
  parsed: RecipientsParseResult;
  asset: TransferAsset;
  ctx: TransferContext;
  plan: ReturnType<typeof planTransfers>;
  cost: TransferCost;
  problems: BalanceProblem[];
  belowRent: number[];
  /** The mint's extensions this tool cannot send safely (or warns about). */
  mintIssues: MintIssueCode[];
}

/** Why a list could not be checked: a message in the solana namespace. */
export type CheckRefusal = { ok: false; key: "batch.mintNotFound" | `codes.${AddressErrorCode}` };

export type CheckResult = { ok: true; checked: CheckedBatch } | CheckRefusal;

const emptyCost: TransferCost = {
  transactions: 0,
  networkFees: 0n,
  priorityFees: 0n,
  newAccountRent: 0n,
  totalAmount: 0n,
  lamportsNeeded: 0n,
};

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
  const base = { parsed, asset, mintIssues: issues };
  if (!parsed.ok || rows.length === 0) {
    const plan = { transactions: [], newAccounts: [] };
    return {
      ok: true,
      checked: { ...base, ctx: { sender, asset }, plan, cost: emptyCost, problems: [], belowRent: [] },
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
  const plan = planTransfers(ctx, rows, { maxBytes: WALLET_HEADROOM_SIZE });
  const cost = transferCost(plan, rows, asset, { accountRent });
  const { value: lamports } = await rpc.getBalance(sender, { commitment: "confirmed" }).send();
  const tokenBalance = asset.kind === "token" ? tokens.find((a) => a.address === asset.source)?.amount : undefined;
  const problems = balanceProblems(cost, asset, { lamports, tokenBalance });
  const belowRent =
    asset.kind === "sol"
      ? rowsBelowRentExemption(rows, await balancesOf(rpc, [...new Set(rows.map((r) => r.address))]))
      : [];
  return { ok: true, checked: { ...base, ctx, plan, cost, problems, belowRent } };
}
