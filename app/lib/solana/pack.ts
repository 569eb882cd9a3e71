/**
 * Packs instructions into the fewest transactions that fit Solana's packet limit, measuring the
 * real serialized size (signature slots included) with @solana/kit.
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getTransactionEncoder,
  type Instruction,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Transaction,
} from "@solana/kit";

/** Largest serialized transaction (legacy and v0): 1280-byte IPv6 MTU minus headers. */
export const TRANSACTION_SIZE_LIMIT = 1232;

/**
 * Some wallets add instructions of their own when signing (guards, priority fees). Packing to this
 * size instead of the hard limit leaves them room; the page decides which to use.
 */
export const WALLET_HEADROOM_SIZE = 1100;

export type TxVersion = 0 | "legacy";

export interface ComputeBudget {
  /** Compute units the transaction may use. */
  unitLimit: number;
  /** Priority fee in micro-lamports per compute unit. */
  unitPrice: bigint;
}

export interface BuildOptions {
  feePayer: Address;
  /** Default 0. Sizes are equal but for v0's two extra bytes; use "legacy" for wallets without v0. */
  version?: TxVersion;
  computeBudget?: ComputeBudget | null;
}

export interface BlockhashLifetime {
  blockhash: Blockhash;
  lastValidBlockHeight: bigint;
}

/** Sizes do not depend on the blockhash: measure with any 32-byte value. */
const PLACEHOLDER_LIFETIME: BlockhashLifetime = {
  blockhash: "11111111111111111111111111111111" as Blockhash,
  lastValidBlockHeight: 0n,
};

/** Every transaction these modules build: the fee payer signs, nothing is signed yet. */
export function compileUnsignedTransaction(
  instructions: readonly Instruction[],
  options: BuildOptions,
  lifetime: BlockhashLifetime,
): Transaction {
  const version = options.version ?? 0;
  const budget = options.computeBudget;
  // Two branches keep kit's message types exact per version.
  if (version === "legacy") {
    let message = setTransactionMessageLifetimeUsingBlockhash(
      lifetime,
      setTransactionMessageFeePayer(options.feePayer, createTransactionMessage({ version: "legacy" })),
    );
    if (budget) {
      message = setTransactionMessageComputeUnitPrice(
        budget.unitPrice,
        setTransactionMessageComputeUnitLimit(budget.unitLimit, message),
      );
    }
    return compileTransaction(appendTransactionMessageInstructions(instructions, message));
  }
  let message = setTransactionMessageLifetimeUsingBlockhash(
    lifetime,
    setTransactionMessageFeePayer(options.feePayer, createTransactionMessage({ version: 0 })),
  );
  if (budget) {
    message = setTransactionMessageComputeUnitPrice(
      budget.unitPrice,
      setTransactionMessageComputeUnitLimit(budget.unitLimit, message),
    );
  }
  return compileTransaction(appendTransactionMessageInstructions(instructions, message));
}

/** Wire size in bytes, signature slots included. */
export function serializedSize(transaction: Transaction): number {
  return getTransactionEncoder().encode(transaction).length;
}

/** Size the instructions would have as one transaction. */
export function measureInstructions(instructions: readonly Instruction[], options: BuildOptions): number {
  return serializedSize(compileUnsignedTransaction(instructions, options, PLACEHOLDER_LIFETIME));
}

/**
 * One unit of packing that never splits across transactions, e.g. "create the recipient's token
 * account, then transfer to it". `setup` instructions with the same key are emitted once per
 * transaction (the first time an item needing them is packed), before the item's instructions.
 */
export interface PackItem {
  setup?: readonly { key: string; instruction: Instruction }[];
  instructions: readonly Instruction[];
}

export interface PackedTransaction {
  /** Positions in the `items` array given to `packItems`, in the order they were packed. */
  itemIdxs: number[];
  instructions: Instruction[];
  /** Serialized size in bytes with the options used. */
  size: number;
}

export class PackError extends Error {
  readonly code = "pack.itemTooLarge";
  readonly itemIdx: number;
  constructor(itemIdx: number) {
    super(`item ${itemIdx} does not fit in one transaction`);
    this.itemIdx = itemIdx;
  }
}

function assemble(items: readonly PackItem[], idxs: readonly number[]): Instruction[] {
  const out: Instruction[] = [];
  const done = new Set<string>();
  for (const idx of idxs) {
    const item = items[idx];
    if (!item) continue;
    for (const { key, instruction } of item.setup ?? []) {
      if (done.has(key)) continue;
      done.add(key);
      out.push(instruction);
    }
    out.push(...item.instructions);
  }
  return out;
}

/**
 * Greedy packing in the given order: each item joins the current transaction while the measured
 * size stays within `maxBytes`, otherwise it starts the next one. Adding an item never shrinks a
 * transaction, so for a fixed order this gives the fewest transactions; callers put items of
 * similar size together (see `planTransfers`). Throws `PackError` if one item alone is too large.
 */
export function packItems(
  items: readonly PackItem[],
  options: BuildOptions & { maxBytes?: number },
): PackedTransaction[] {
  const maxBytes = options.maxBytes ?? TRANSACTION_SIZE_LIMIT;
  if (maxBytes > TRANSACTION_SIZE_LIMIT) throw new RangeError(`maxBytes above ${TRANSACTION_SIZE_LIMIT}`);
  const out: PackedTransaction[] = [];
  let current: PackedTransaction | null = null;
  for (let idx = 0; idx < items.length; idx++) {
    if (current) {
      const idxs: number[] = [...current.itemIdxs, idx];
      const instructions = assemble(items, idxs);
      const size = measureInstructions(instructions, options);
      if (size <= maxBytes) {
        current = { itemIdxs: idxs, instructions, size };
        out[out.length - 1] = current;
        continue;
      }
    }
    const instructions = assemble(items, [idx]);
    const size = measureInstructions(instructions, options);
    if (size > maxBytes) throw new PackError(idx);
    current = { itemIdxs: [idx], instructions, size };
    out.push(current);
  }
  return out;
}
