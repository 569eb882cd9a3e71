/**
 * Batch transfers: SOL (System Program transfer) or an SPL token (transferChecked on Token or
 * Token-2022, creating a recipient's associated token account idempotently when it is missing),
 * packed into the fewest transactions, each knowing which rows it carries.
 */

import { type Address, createNoopSigner, type Instruction } from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { priorityFeeLamports } from "./fees.ts";
import { type BuildOptions, type ComputeBudget, type PackItem, packItems } from "./pack.ts";

export const TOKEN_2022_PROGRAM_ADDRESS = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" as Address;
export { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS };

/** Base fee per signature (lamports); every transaction here has one signature, the sender's. */
export const LAMPORTS_PER_SIGNATURE = 5000n;

/** Rent-exempt minimum of an account without data (System account), lamports. */
export const RENT_EXEMPT_MINIMUM_EMPTY = 890_880n;

export type TransferAsset =
  | { kind: "sol" }
  | {
      kind: "token";
      mint: Address;
      decimals: number;
      /** TOKEN_PROGRAM_ADDRESS or TOKEN_2022_PROGRAM_ADDRESS: the program that owns the mint. */
      tokenProgram: Address;
      /** The sender's token account holding the balance (usually its associated token account). */
      source: Address;
    };

export interface TransferRow {
  /** The row's index in the recipient list (`RecipientRow.index`). */
  index: number;
  /** The recipient wallet (owner), not a token account. */
  address: Address;
  /** Base units. */
  amount: bigint;
}

export function isTokenProgram(program: string): boolean {
  return program === TOKEN_PROGRAM_ADDRESS || program === TOKEN_2022_PROGRAM_ADDRESS;
}

/** The associated token account of `owner` for a mint, under the mint's token program. */
export async function associatedTokenAddress(owner: Address, mint: Address, tokenProgram: Address): Promise<Address> {
  if (!isTokenProgram(tokenProgram)) throw new RangeError("unknown token program");
  const [ata] = await findAssociatedTokenPda({ owner, mint, tokenProgram });
  return ata;
}

/** Associated token accounts of every distinct recipient: owner -> account. */
export async function recipientTokenAccounts(
  owners: readonly Address[],
  mint: Address,
  tokenProgram: Address,
): Promise<Map<Address, Address>> {
  const out = new Map<Address, Address>();
  for (const owner of new Set(owners)) out.set(owner, await associatedTokenAddress(owner, mint, tokenProgram));
  return out;
}

export interface TransferContext {
  sender: Address;
  asset: TransferAsset;
  /** Token transfers: owner -> associated token account, from `recipientTokenAccounts`. */
  tokenAccounts?: ReadonlyMap<Address, Address>;
  /**
   * Token transfers: recipient token accounts known to exist. Any other is created idempotently
   * (safe even if it exists by then; it only costs bytes). Omitted: create for every recipient.
   */
  existingAccounts?: ReadonlySet<Address>;
}

interface RowInstructions {
  item: PackItem;
  /** The token account this row creates, if any. */
  creates: Address | null;
}

function rowInstructions(ctx: TransferContext, row: TransferRow, creates?: ReadonlySet<string>): RowInstructions {
  const sender = createNoopSigner(ctx.sender);
  if (row.amount <= 0n) throw new RangeError(`row ${row.index}: amount must be positive`);
  if (ctx.asset.kind === "sol") {
    return {
      item: {
        instructions: [getTransferSolInstruction({ source: sender, destination: row.address, amount: row.amount })],
      },
      creates: null,
    };
  }
  const { mint, decimals, tokenProgram, source } = ctx.asset;
  const destination = ctx.tokenAccounts?.get(row.address);
  if (!destination) throw new RangeError(`row ${row.index}: no token account derived for ${row.address}`);
  const transfer = getTransferCheckedInstruction(
    { source, mint, destination, authority: sender, amount: row.amount, decimals },
    { programAddress: tokenProgram },
  );
  const needsCreate = creates ? creates.has(destination) : !ctx.existingAccounts?.has(destination);
  if (!needsCreate) return { item: { instructions: [transfer] }, creates: null };
  const create = getCreateAssociatedTokenIdempotentInstruction({
    payer: sender,
    ata: destination,
    owner: row.address,
    mint,
    tokenProgram,
  });
  return {
    item: { setup: [{ key: destination, instruction: create }], instructions: [transfer] },
    creates: destination,
  };
}

/**
 * Instructions carrying exactly these rows in one transaction, for signing a planned transaction
 * (again). Pass the transaction's planned `creates` to rebuild it exactly as planned (same
 * instructions, same size) whatever `ctx.existingAccounts` says by then.
 */
export function transferInstructions(
  ctx: TransferContext,
  rows: readonly TransferRow[],
  creates?: readonly string[],
): Instruction[] {
  const out: Instruction[] = [];
  const created = new Set<string>();
  const createSet = creates ? new Set(creates) : undefined;
  for (const row of rows) {
    const { item } = rowInstructions(ctx, row, createSet);
    for (const { key, instruction } of item.setup ?? []) {
      if (created.has(key)) continue;
      created.add(key);
      out.push(instruction);
    }
    out.push(...item.instructions);
  }
  return out;
}

export interface PlannedTransaction {
  /** `TransferRow.index` values carried, in instruction order. */
  rowIdxs: number[];
  instructions: Instruction[];
  size: number;
  /** Token accounts this transaction creates if still missing. */
  creates: Address[];
}

export interface TransferPlan {
  transactions: PlannedTransaction[];
  /** Distinct token accounts to be created. */
  newAccounts: Address[];
}

export interface PlanOptions {
  /** Default `TRANSACTION_SIZE_LIMIT` (1232). */
  maxBytes?: number;
  version?: BuildOptions["version"];
  computeBudget?: ComputeBudget | null;
}

/**
 * Plans a batch: rows that create an account are packed first, then the others, each group in
 * list order, so transactions hold rows of one size and the greedy packing stays tight.
 */
export function planTransfers(
  ctx: TransferContext,
  rows: readonly TransferRow[],
  options: PlanOptions = {},
): TransferPlan {
  const built = rows.map((row) => ({ row, ...rowInstructions(ctx, row) }));
  const ordered = [...built.filter((b) => b.creates), ...built.filter((b) => !b.creates)];
  const packed = packItems(
    ordered.map((b) => b.item),
    {
      feePayer: ctx.sender,
      version: options.version,
      computeBudget: options.computeBudget,
      maxBytes: options.maxBytes,
    },
  );
  const newAccounts = new Set<Address>();
  const transactions = packed.map((tx): PlannedTransaction => {
    const carried = tx.itemIdxs.map((i) => ordered[i]).filter((b) => b !== undefined);
    const creates = [...new Set(carried.flatMap((b) => (b.creates ? [b.creates] : [])))];
    for (const account of creates) newAccounts.add(account);
    return { rowIdxs: carried.map((b) => b.row.index), instructions: tx.instructions, size: tx.size, creates };
  });
  return { transactions, newAccounts: [...newAccounts] };
}

export interface TransferCost {
  transactions: number;
  /** Base fees: one signature per transaction. */
  networkFees: bigint;
  /** unitPrice × unitLimit of each transaction, rounded up to whole lamports. */
  priorityFees: bigint;
  /** Rent for the token accounts created (the sender pays it). */
  newAccountRent: bigint;
  /** Sum of the rows' amounts, in the asset's base units. */
  totalAmount: bigint;
  /** Lamports the sender needs: fees + rent, plus the amounts when sending SOL. */
  lamportsNeeded: bigint;
}

/**
 * What the plan costs. `accountRent`: rent-exempt minimum of one new token account (ask the RPC).
 * `budgets`: each transaction's compute budget, in plan order (none: no priority fee).
 */
export function transferCost(
  plan: TransferPlan,
  rows: readonly TransferRow[],
  asset: TransferAsset,
  options: { accountRent: bigint; budgets?: readonly (ComputeBudget | null)[] },
): TransferCost {
  const count = BigInt(plan.transactions.length);
  const priorityFees = (options.budgets ?? []).reduce((sum, b) => sum + (b ? priorityFeeLamports(b) : 0n), 0n);
  const networkFees = count * LAMPORTS_PER_SIGNATURE;
  const newAccountRent = BigInt(plan.newAccounts.length) * options.accountRent;
  const totalAmount = rows.reduce((sum, row) => sum + row.amount, 0n);
  const lamportsNeeded = networkFees + priorityFees + newAccountRent + (asset.kind === "sol" ? totalAmount : 0n);
  return {
    transactions: plan.transactions.length,
    networkFees,
    priorityFees,
    newAccountRent,
    totalAmount,
    lamportsNeeded,
  };
}

export type BalanceProblem =
  | { code: "balance.insufficientSol"; shortfall: bigint }
  | { code: "balance.insufficientToken"; shortfall: bigint };

/**
 * Checks the sender's balances against a plan's cost. The sender must keep at least the
 * rent-exempt minimum: a transaction that leaves a fee payer between 0 and that minimum fails
 * (InsufficientFundsForRent), and emptying the wallet exactly depends on the order the
 * transactions land in, so it is not offered. `tokenBalance` is needed for token transfers.
 */
export function balanceProblems(
  cost: TransferCost,
  asset: TransferAsset,
  balances: { lamports: bigint; tokenBalance?: bigint },
  rentExemptMinimum: bigint = RENT_EXEMPT_MINIMUM_EMPTY,
): BalanceProblem[] {
  const out: BalanceProblem[] = [];
  const solNeeded = cost.lamportsNeeded + rentExemptMinimum;
  if (balances.lamports < solNeeded)
    out.push({ code: "balance.insufficientSol", shortfall: solNeeded - balances.lamports });
  if (asset.kind === "token") {
    const have = balances.tokenBalance ?? 0n;
    if (have < cost.totalAmount) out.push({ code: "balance.insufficientToken", shortfall: cost.totalAmount - have });
  }
  return out;
}

/**
 * SOL rows that would leave a recipient below the rent-exempt minimum (the network refuses them
 * with InsufficientFundsForRent). `balances`: current lamports of each recipient (absent = 0).
 * Each row is checked alone, since rows to one address may land in different transactions.
 */
export function rowsBelowRentExemption(
  rows: readonly TransferRow[],
  balances: ReadonlyMap<Address, bigint>,
  rentExemptMinimum: bigint = RENT_EXEMPT_MINIMUM_EMPTY,
): number[] {
  return rows
    .filter((row) => {
      const balance = balances.get(row.address) ?? 0n;
      return balance < rentExemptMinimum && balance + row.amount < rentExemptMinimum;
    })
    .map((row) => row.index);
}

/** Token-2022 mint extensions (jsonParsed names) that plain transferChecked cannot serve. */
export type MintIssueCode = "mint.transferHook" | "mint.nonTransferable" | "mint.transferFee" | "mint.confidentialOnly";

/**
 * Problems with a mint's extensions: a transfer hook needs extra accounts, a non-transferable
 * mint cannot move, a transfer fee means recipients get less than the row says (the page should
 * refuse or warn), and confidential-only mints cannot use public transfers.
 */
export function mintIssues(extensions: readonly string[]): MintIssueCode[] {
  const set = new Set(extensions);
  const out: MintIssueCode[] = [];
  if (set.has("transferHook")) out.push("mint.transferHook");
  if (set.has("nonTransferable")) out.push("mint.nonTransferable");
  if (set.has("transferFeeConfig")) out.push("mint.transferFee");
  if (set.has("confidentialMintBurn")) out.push("mint.confidentialOnly");
  return out;
}
