/**
 * Closing empty token accounts to recover their rent: which accounts may be closed, what each
 * returns, and close instructions (rent to the owner only) packed into the fewest transactions.
 */

import { type Address, createNoopSigner } from "@solana/kit";
import { getCloseAccountInstruction } from "@solana-program/token";
import { type BuildOptions, type ComputeBudget, packItems } from "./pack.ts";
import { isTokenProgram } from "./transfer-plan.ts";

export interface TokenAccountInfo {
  address: Address;
  /** Owning program: Token or Token-2022. */
  program: Address;
  mint: Address;
  owner: Address;
  /** Token balance in base units. */
  amount: bigint;
  /** Lamports held by the account: all of them go to the destination on close. */
  lamports: bigint;
  /** Wrapped SOL account. */
  isNative: boolean;
  state: "initialized" | "frozen" | "uninitialized";
  closeAuthority: Address | null;
  /** Token-2022 transfer fees withheld in the account (0 without the extension). */
  withheldAmount: bigint;
  /** Token-2022 extension names as jsonParsed reports them (`immutableOwner`, …). */
  extensions: string[];
}

export type NotClosableReason =
  | "close.notOwner"
  | "close.unknownProgram"
  | "close.uninitialized"
  | "close.hasBalance"
  | "close.wrappedSolBalance"
  | "close.frozen"
  | "close.withheldFees"
  | "close.otherCloseAuthority"
  | "close.confidentialBalance";

/**
 * Why `owner` may not close the account, or null when it may. Closable means: owned by the
 * wallet, a known token program, zero balance (wrapped SOL included), not frozen, no withheld
 * transfer fees, no close authority other than the owner, and no confidential-transfer state
 * (whose balances the parsed view cannot show).
 */
export function notClosableReason(account: TokenAccountInfo, owner: Address): NotClosableReason | null {
  if (account.owner !== owner) return "close.notOwner";
  if (!isTokenProgram(account.program)) return "close.unknownProgram";
  if (account.state === "uninitialized") return "close.uninitialized";
  if (account.amount !== 0n) return account.isNative ? "close.wrappedSolBalance" : "close.hasBalance";
  if (account.state === "frozen") return "close.frozen";
  if (account.withheldAmount !== 0n) return "close.withheldFees";
  if (account.closeAuthority !== null && account.closeAuthority !== owner) return "close.otherCloseAuthority";
  if (account.extensions.includes("confidentialTransferAccount")) return "close.confidentialBalance";
  return null;
}

export interface CloseSelection {
  closable: { account: TokenAccountInfo; rent: bigint }[];
  kept: { account: TokenAccountInfo; reason: NotClosableReason }[];
  /** Lamports returned to the owner when every closable account is closed. */
  totalRent: bigint;
}

export function selectClosable(accounts: readonly TokenAccountInfo[], owner: Address): CloseSelection {
  const closable: CloseSelection["closable"] = [];
  const kept: CloseSelection["kept"] = [];
  for (const account of accounts) {
    const reason = notClosableReason(account, owner);
    if (reason) kept.push({ account, reason });
    else closable.push({ account, rent: account.lamports });
  }
  return { closable, kept, totalRent: closable.reduce((sum, c) => sum + c.rent, 0n) };
}

export interface PlannedClose {
  /** Addresses of the accounts this transaction closes. */
  accounts: Address[];
  instructions: ReturnType<typeof getCloseAccountInstruction>[];
  size: number;
  /** Lamports this transaction returns to the owner. */
  rent: bigint;
}

/**
 * Close instructions for the selected accounts, packed into the fewest transactions of at most
 * `maxBytes`. Refuses (throws) any account `notClosableReason` rejects, so a caller cannot pass
 * an account with a balance by mistake. Destination and fee payer are the owner.
 */
export function planCloseAccounts(
  accounts: readonly TokenAccountInfo[],
  owner: Address,
  options: { maxBytes?: number; version?: BuildOptions["version"]; computeBudget?: ComputeBudget | null } = {},
): PlannedClose[] {
  const signer = createNoopSigner(owner);
  const items = accounts.map((account) => {
    const reason = notClosableReason(account, owner);
    if (reason) throw new RangeError(`${account.address}: ${reason}`);
    return {
      instructions: [
        getCloseAccountInstruction(
          { account: account.address, destination: owner, owner: signer },
          { programAddress: account.program },
        ),
      ],
    };
  });
  const packed = packItems(items, { feePayer: owner, ...options });
  return packed.map((tx) => {
    const carried = tx.itemIdxs.map((i) => accounts[i]).filter((a) => a !== undefined);
    return {
      accounts: carried.map((a) => a.address),
      instructions: tx.itemIdxs.flatMap((i) => items[i]?.instructions ?? []),
      size: tx.size,
      rent: carried.reduce((sum, a) => sum + a.lamports, 0n),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// jsonParsed RPC answers (getTokenAccountsByOwner with encoding "jsonParsed") to TokenAccountInfo.

type Json = unknown;

function record(value: Json): Record<string, Json> | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, Json>) : null;
}

function bigintOf(value: Json): bigint | null {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^[0-9]+$/.test(value)) return BigInt(value);
  return null;
}

function stringOf(value: Json): string | null {
  return typeof value === "string" ? value : null;
}

/**
 * Reads one `{ pubkey, account }` entry of a jsonParsed answer. Returns null for anything that is
 * not a parsed token account, so an unexpected shape is never treated as closable.
 */
export function tokenAccountFromJsonParsed(entry: Json): TokenAccountInfo | null {
  const top = record(entry);
  const account = record(top?.account);
  const data = record(account?.data);
  const parsed = record(data?.parsed);
  const info = record(parsed?.info);
  const tokenAmount = record(info?.tokenAmount);
  if (!top || !account || !info || !tokenAmount || parsed?.type !== "account") return null;
  const address = stringOf(top.pubkey);
  const program = stringOf(account.owner);
  const mint = stringOf(info.mint);
  const owner = stringOf(info.owner);
  const amount = bigintOf(tokenAmount.amount);
  const lamports = bigintOf(account.lamports);
  const state = info.state;
  if (!address || !program || !mint || !owner || amount === null || lamports === null) return null;
  if (state !== "initialized" && state !== "frozen" && state !== "uninitialized") return null;
  const closeAuthority =
    info.closeAuthority === undefined || info.closeAuthority === null ? null : stringOf(info.closeAuthority);
  if (info.closeAuthority !== undefined && info.closeAuthority !== null && closeAuthority === null) return null;

  const extensions: string[] = [];
  let withheldAmount = 0n;
  if (Array.isArray(info.extensions)) {
    for (const raw of info.extensions) {
      const ext = record(raw);
      const name = stringOf(ext?.extension);
      if (!ext || !name) return null;
      extensions.push(name);
      if (name === "transferFeeAmount") {
        const withheld = bigintOf(record(ext.state)?.withheldAmount);
        // Unreadable withheld amount: assume fees are withheld, so the account is kept.
        withheldAmount = withheld ?? 1n;
      }
    }
  }
  return {
    address: address as Address,
    program: program as Address,
    mint: mint as Address,
    owner: owner as Address,
    amount,
    lamports,
    isNative: info.isNative === true,
    state,
    closeAuthority: closeAuthority as Address | null,
    withheldAmount,
    extensions,
  };
}
