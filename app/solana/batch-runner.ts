/**
 * Runs (or resumes) a batch job against the RPC and the wallet, following the job rules: read the
 * block height first, then the statuses of every signature the job knows; act on `nextAction`;
 * save the job after signing and before sending; sign again only on a `resign` decision.
 */

import type { Address } from "@solana/kit";
import { SolanaToolError } from "../lib/solana/errors.ts";
import {
  applyDecisions,
  isJobFinished,
  type Job,
  type JobStore,
  nextAction,
  recordSent,
  recordSigned,
  signaturesToCheck,
  type TxDecision,
} from "../lib/solana/job.ts";
import { compileUnsignedTransaction } from "../lib/solana/pack.ts";
import { recipientTokenAccounts, type TransferContext, transferInstructions } from "../lib/solana/transfer-plan.ts";
import {
  blockHeight,
  bytesToBase64,
  latestBlockhash,
  type SolanaRpc,
  sendWire,
  signatureStatuses,
  simulate,
  wireBase64,
  wireBytes,
} from "./rpc.ts";
import { signTransactions, type Wallet, type WalletAccount } from "./wallet.ts";

export interface RunnerDeps {
  rpc: SolanaRpc;
  store: JobStore;
  wallet: Wallet;
  account: WalletAccount;
  chain: string | undefined;
  /** Called with every new state of the job (after it was saved). */
  onJob(job: Job): void;
  onMessage(code: "simulating" | "signing" | "sending" | "confirming", count?: number): void;
  /** Double landings reported by `nextAction`. */
  onLandedTwice(txIndex: number): void;
  pollMs?: number;
  /** Stop after this many status rounds without progress (the page offers to resume later). */
  maxIdleRounds?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function contextOf(job: Job): Promise<TransferContext> {
  const sender = job.sender as Address;
  if (job.asset.kind === "sol") return { sender, asset: job.asset };
  const owners = job.rows.map((r) => r.address as Address);
  return {
    sender,
    asset: job.asset,
    tokenAccounts: await recipientTokenAccounts(owners, job.asset.mint, job.asset.tokenProgram),
  };
}

/** A transaction's simulation failed: nothing was signed. `err` and `logs` as the RPC gave them. */
export class SimulationError extends Error {
  readonly txIndex: number;
  readonly err: unknown;
  readonly logs: readonly string[];
  constructor(txIndex: number, message: string, err: unknown, logs: readonly string[]) {
    super(message);
    this.txIndex = txIndex;
    this.err = err;
    this.logs = logs;
  }
}

/** Sending a signed transaction failed (it stays signed: a resume sends the same bytes). */
export class SendError extends Error {
  readonly txIndex: number;
  constructor(txIndex: number, cause: unknown) {
    super(`transaction ${txIndex + 1}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.txIndex = txIndex;
  }
}

export async function runJob(initial: Job, deps: RunnerDeps): Promise<Job> {
  let job = initial;
  const save = async (next: Job) => {
    job = next;
    await deps.store.put(job);
    deps.onJob(job);
  };
  const ctx = await contextOf(job);
  const rowsByIndex = new Map(job.rows.map((r) => [r.index, r]));
  let idle = 0;
  while (!isJobFinished(job)) {
    // Block height first, then statuses: a status read after the height cannot be older than it.
    const height = await blockHeight(deps.rpc);
    const statuses = await signatureStatuses(deps.rpc, signaturesToCheck(job));
    const decisions = nextAction(job, statuses, height);
    for (const d of decisions) if (d.landedTwice) deps.onLandedTwice(d.txIndex);
    const applied = applyDecisions(job, decisions);
    if (applied !== job) await save(applied);

    const toSign = decisions.filter((d) => d.action === "sign" || d.action === "resign");
    const toSend = decisions.filter((d) => d.action === "send").map((d) => d.txIndex);
    if (toSign.length > 0) toSend.push(...(await signAll(toSign)));
    if (toSend.length > 0) {
      deps.onMessage("sending", toSend.length);
      for (const i of toSend) {
        const signedTx = job.txs[i]?.signedTx;
        if (!signedTx) continue;
        try {
          await sendWire(deps.rpc, signedTx as Parameters<typeof sendWire>[1]);
        } catch (error) {
          // Not marked sent: the next round finds it unknown and sends the same bytes again.
          throw new SendError(i, error);
        }
        await save(recordSent(job, i));
      }
      idle = 0;
      continue;
    }
    if (isJobFinished(job)) break;
    deps.onMessage("confirming");
    idle += 1;
    if (idle > (deps.maxIdleRounds ?? 120))
      throw new SolanaToolError("notConfirmed", "the network has not confirmed the transactions yet");
    await sleep(deps.pollMs ?? 700);
  }
  return job;

  /** Builds, simulates, signs (one wallet prompt) and SAVES every transaction to sign. */
  async function signAll(decisions: readonly TxDecision[]): Promise<number[]> {
    deps.onMessage("simulating", decisions.length);
    const lifetime = await latestBlockhash(deps.rpc);
    const txs = decisions.map((d) => {
      const planned = job.txs[d.txIndex];
      if (!planned) throw new Error(`no transaction ${d.txIndex}`);
      const rows = planned.rowIdxs.map((idx) => {
        const row = rowsByIndex.get(idx);
        if (!row) throw new Error(`no row ${idx}`);
        return { index: row.index, address: row.address as Address, amount: row.amount };
      });
      return compileUnsignedTransaction(
        transferInstructions(ctx, rows, planned.creates),
        { feePayer: job.sender as Address, computeBudget: planned.computeBudget ?? null },
        lifetime,
      );
    });
    for (const [k, tx] of txs.entries()) {
      const result = await simulate(deps.rpc, tx);
      if (result.error) throw new SimulationError(decisions[k]?.txIndex ?? k, result.error, result.err, result.logs);
    }
    deps.onMessage("signing", txs.length);
    const signed = await signTransactions(
      deps.wallet,
      deps.account,
      txs.map((tx) => wireBytes(tx)),
      deps.chain,
    );
    let next = job;
    for (const [k, bytes] of signed.entries()) {
      const decision = decisions[k];
      if (!decision) continue;
      next = recordSigned(
        next,
        decision.txIndex,
        { signedTx: wireBase64(bytes), lastValidBlockHeight: lifetime.lastValidBlockHeight },
        decision.action === "resign" ? decision : undefined,
      );
    }
    // Saved before anything is sent: a crash from here on resumes with these exact bytes.
    await save(next);
    return decisions.map((d) => d.txIndex);
  }
}

export { bytesToBase64 };
