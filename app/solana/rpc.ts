/**
 * The RPC calls the /solana pages make, on @solana/kit's RPC client. Browser code of the /solana
 * routes only.
 */

import {
  type Address,
  type Base64EncodedWireTransaction,
  createSolanaRpc,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  type Signature,
  type Transaction,
} from "@solana/kit";
import { type TokenAccountInfo, tokenAccountFromJsonParsed } from "../lib/solana/close-accounts.ts";
import { estimateFees, FEE_ACCOUNTS_MAX, type FeeEstimate } from "../lib/solana/fees.ts";
import type { SignatureStatus } from "../lib/solana/job.ts";
import type { BlockhashLifetime } from "../lib/solana/pack.ts";
import { TOKEN_2022_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS } from "../lib/solana/transfer-plan.ts";

export type SolanaRpc = ReturnType<typeof createSolanaRpc>;

export function rpcFor(url: string): SolanaRpc {
  return createSolanaRpc(url);
}

/** The wallet's token accounts under Token and Token-2022 (unknown shapes are left out). */
export async function loadTokenAccounts(rpc: SolanaRpc, owner: Address): Promise<TokenAccountInfo[]> {
  const answers = await Promise.all(
    [TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS].map((programId) =>
      rpc.getTokenAccountsByOwner(owner, { programId }, { encoding: "jsonParsed", commitment: "confirmed" }).send(),
    ),
  );
  return answers.flatMap((a) => a.value.map((entry) => tokenAccountFromJsonParsed(entry))).filter((a) => a !== null);
}

export async function latestBlockhash(rpc: SolanaRpc): Promise<BlockhashLifetime> {
  const { value } = await rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
  return value;
}

export function wireBytes(transaction: Transaction): Uint8Array {
  return new Uint8Array(getTransactionEncoder().encode(transaction));
}

export function wireBase64(bytes: Uint8Array): Base64EncodedWireTransaction {
  return getBase64EncodedWireTransaction(getTransactionDecoder().decode(bytes));
}

export function bytesToBase64(bytes: Uint8Array): string {
  return getBase64Decoder().decode(bytes);
}

/**
 * Simulates an unsigned transaction: the error (JSON text, null when it would succeed), the
 * error as the RPC gave it (`err`), the logs, and the compute units it consumed.
 */
export async function simulate(
  rpc: SolanaRpc,
  transaction: Transaction,
): Promise<{ error: string | null; err: unknown; logs: readonly string[]; unitsConsumed: number | null }> {
  const { value } = await rpc
    .simulateTransaction(getBase64EncodedWireTransaction(transaction), {
      encoding: "base64",
      sigVerify: false,
      replaceRecentBlockhash: true,
      commitment: "confirmed",
    })
    .send();
  return {
    error: value.err ? jsonText(value.err) : null,
    err: value.err,
    logs: value.logs ?? [],
    unitsConsumed: value.unitsConsumed === undefined ? null : Number(value.unitsConsumed),
  };
}

/** The network fee of a compiled message, in lamports (null when the RPC cannot tell). */
export async function messageFee(rpc: SolanaRpc, transaction: Transaction): Promise<bigint | null> {
  const message = bytesToBase64(new Uint8Array(transaction.messageBytes));
  const { value } = await rpc
    .getFeeForMessage(message as Parameters<SolanaRpc["getFeeForMessage"]>[0], { commitment: "confirmed" })
    .send();
  return value;
}

export async function sendWire(rpc: SolanaRpc, base64: Base64EncodedWireTransaction): Promise<Signature> {
  return await rpc
    .sendTransaction(base64, { encoding: "base64", preflightCommitment: "confirmed", maxRetries: 0n })
    .send();
}

export async function blockHeight(rpc: SolanaRpc): Promise<bigint> {
  return await rpc.getBlockHeight({ commitment: "confirmed" }).send();
}

/** Statuses of signatures, searching history (for resumes); null entries are unknown to the network. */
export async function signatureStatuses(
  rpc: SolanaRpc,
  signatures: readonly string[],
): Promise<Map<string, SignatureStatus | null>> {
  const out = new Map<string, SignatureStatus | null>();
  for (let i = 0; i < signatures.length; i += 256) {
    const chunk = signatures.slice(i, i + 256);
    const { value } = await rpc.getSignatureStatuses(chunk as Signature[], { searchTransactionHistory: true }).send();
    chunk.forEach((sig, j) => {
      const status = value[j];
      out.set(sig, status ? { err: status.err, confirmationStatus: status.confirmationStatus } : null);
    });
  }
  return out;
}

export type Outcome = { kind: "confirmed" } | { kind: "failed"; error: string; err: unknown } | { kind: "expired" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until every signature is confirmed, failed, or its blockhash has expired. */
export async function waitForOutcomes(
  rpc: SolanaRpc,
  items: readonly { signature: string; lastValidBlockHeight: bigint }[],
  onOutcome: (signature: string, outcome: Outcome) => void,
  pollMs = 700,
): Promise<void> {
  const pending = new Map(items.map((i) => [i.signature, i.lastValidBlockHeight]));
  while (pending.size > 0) {
    const height = await blockHeight(rpc);
    const statuses = await signatureStatuses(rpc, [...pending.keys()]);
    for (const [signature, lastValid] of pending) {
      const status = statuses.get(signature);
      if (status?.err) {
        onOutcome(signature, { kind: "failed", error: jsonText(status.err), err: status.err });
        pending.delete(signature);
      } else if (status && (status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized")) {
        onOutcome(signature, { kind: "confirmed" });
        pending.delete(signature);
      } else if (!status && height > lastValid) {
        onOutcome(signature, { kind: "expired" });
        pending.delete(signature);
      }
    }
    if (pending.size > 0) await sleep(pollMs);
  }
}

export function jsonText(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * Price levels from the fees recently paid to write these accounts (the writable accounts of
 * the transactions about to be sent; at most 128 are asked about).
 */
export async function recentFeeEstimate(rpc: SolanaRpc, writable: readonly Address[]): Promise<FeeEstimate> {
  const accounts = [...new Set(writable)].slice(0, FEE_ACCOUNTS_MAX);
  const recent = await rpc.getRecentPrioritizationFees(accounts).send();
  return estimateFees(recent);
}
