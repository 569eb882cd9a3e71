/**
 * "Never pay twice": a batch job (rows, the transactions carrying them, signed bytes, signatures
 * and blockhash expiry) and the pure decision of what to do with each transaction after a reload,
 * a crash or a timeout. A transaction is signed again only when its blockhash has expired (it can
 * no longer land) and the network knows none of its signatures.
 *
 * The page's loop, with the job saved to a JobStore after every step:
 *   1. sign: wallet signs → `recordSigned` → save → send the bytes → `recordSent` → save.
 *   2. on resume or timeout: read the block height FIRST, then
 *      getSignatureStatuses(signaturesToCheck(job), { searchTransactionHistory: true }),
 *      then `nextAction(job, statuses, blockHeight)` and act on each decision.
 * Reading the height before the statuses matters: a transaction that lands between the two reads
 * is then seen in the statuses instead of being taken for expired.
 */
import { getBase64Encoder, getSignatureFromTransaction, getTransactionDecoder } from "@solana/kit";
import { toCsv } from "../csv.ts";
import { formatAmount, SOL_DECIMALS } from "./amount.ts";
import type { ComputeBudget } from "./pack.ts";
import type { TransferAsset } from "./transfer-plan.ts";

export type JobTxStatus = "unsigned" | "signed" | "sent" | "confirmed" | "failed";

export interface JobTx {
  /** Row indexes (`JobRow.index`) this transaction pays. */
  rowIdxs: number[];
  /** Token accounts the plan creates in this transaction: pass to `transferInstructions` to rebuild it. */
  creates: string[];
  /**
   * Compute-unit limit and price, fixed when the reader confirmed the cost: every signing (a
   * re-signing after expiry too) uses them, so the fee paid is the fee shown. Optional for jobs
   * saved before budgets existed, which are rebuilt without one.
   */
  computeBudget?: ComputeBudget | null;
  status: JobTxStatus;
  /** Signed wire transaction, base64, exactly as it was (or will be) sent. */
  signedTx: string | null;
  /** Base58 signature of `signedTx` (the fee payer's). */
  signature: string | null;
  lastValidBlockHeight: bigint | null;
  /** Signatures of earlier signings whose blockhash expired while the network knew nothing of them. */
  expiredSignatures: string[];
  /** Error reported by the network for a failed transaction (JSON text). */
  error: string | null;
}

export interface JobRow {
  index: number;
  /** Line in the recipient list, for messages and the results file. */
  line: number;
  address: string;
  amount: bigint;
}

export interface Job {
  id: string;
  createdAt: string;
  sender: string;
  asset: TransferAsset;
  rows: JobRow[];
  txs: JobTx[];
}

/** One signature's entry from getSignatureStatuses; `null` there means the network does not know it. */
export interface SignatureStatus {
  err: unknown;
  confirmationStatus: "processed" | "confirmed" | "finalized" | null;
}

/**
 * Statuses by signature. A signature mapped to `null` is unknown to the network; a signature
 * missing from the map was not looked up (or the lookup failed) and is never taken as unknown.
 */
export type StatusLookup = ReadonlyMap<string, SignatureStatus | null>;

export type TxAction =
  /** Never signed: build with a fresh blockhash and sign. */
  | "sign"
  /** Signed, unknown to the network, blockhash still valid: send the same bytes again. */
  | "send"
  /** Blockhash expired (beyond the margin) and no signature known: build, sign again, send. */
  | "resign"
  /** Nothing to do yet: in flight, landed but not yet confirmed, or statuses not read. */
  | "wait"
  /** Landed without error: mark confirmed. */
  | "confirmed"
  /** Landed with an error: mark failed (nothing was transferred; a retry is a user decision). */
  | "failed"
  /** Already confirmed or failed in the job. */
  | "done";

export interface TxDecision {
  txIndex: number;
  action: TxAction;
  /** The signature that decided "confirmed" or "failed"; for "resign", the one found expired. */
  signature?: string;
  /** For "failed": the network's error, as JSON text. */
  error?: string;
  /** True when more than one signing of this transaction landed: a double payment to report. */
  landedTwice?: boolean;
}

/**
 * Blocks to wait past `lastValidBlockHeight` before taking a transaction for expired, so an RPC
 * node behind the one that saw it land cannot make us sign it again.
 */
export const DEFAULT_EXPIRY_MARGIN_BLOCKS = 150n;

function landed(status: SignatureStatus | null | undefined): status is SignatureStatus {
  return status !== null && status !== undefined;
}

function settled(status: SignatureStatus): boolean {
  return status.confirmationStatus === "confirmed" || status.confirmationStatus === "finalized";
}

function errorText(err: unknown): string {
  return JSON.stringify(err, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
}

/** Every signature whose status the page must read before `nextAction`. */
export function signaturesToCheck(job: Job): string[] {
  const out: string[] = [];
  for (const tx of job.txs) {
    if (tx.status === "confirmed" || tx.status === "failed") continue;
    out.push(...tx.expiredSignatures);
    if (tx.signature) out.push(tx.signature);
  }
  return out;
}

/** Decides, for every transaction, what to do next. Pure: the job is not changed. */
export function nextAction(
  job: Job,
  statuses: StatusLookup,
  currentBlockHeight: bigint | null,
  options: { expiryMarginBlocks?: bigint } = {},
): TxDecision[] {
  const margin = options.expiryMarginBlocks ?? DEFAULT_EXPIRY_MARGIN_BLOCKS;
  return job.txs.map((tx, txIndex): TxDecision => {
    if (tx.status === "confirmed" || tx.status === "failed") return { txIndex, action: "done" };
    if (tx.status === "unsigned" || !tx.signature || !tx.signedTx || tx.lastValidBlockHeight === null) {
      // Nothing was ever handed to the network for this transaction, unless an expired signing was.
      if (tx.expiredSignatures.length === 0) return { txIndex, action: "sign" };
    }
    const signatures = [...tx.expiredSignatures, ...(tx.signature ? [tx.signature] : [])];
    const known = signatures.filter((sig) => landed(statuses.get(sig)));
    const succeeded = known.filter((sig) => {
      const status = statuses.get(sig);
      return landed(status) && status.err === null && settled(status);
    });
    if (succeeded.length > 0) {
      return { txIndex, action: "confirmed", signature: succeeded[0], landedTwice: succeeded.length > 1 || undefined };
    }
    // A signature that landed (with or without error) is known: never sign again.
    for (const sig of known) {
      const status = statuses.get(sig);
      if (landed(status) && status.err !== null && status.err !== undefined) {
        if (settled(status)) return { txIndex, action: "failed", signature: sig, error: errorText(status.err) };
        return { txIndex, action: "wait" };
      }
    }
    if (known.length > 0) return { txIndex, action: "wait" };
    // From here on no signature is known to the network.
    if (signatures.some((sig) => !statuses.has(sig)) || currentBlockHeight === null) return { txIndex, action: "wait" };
    if (!tx.signature || !tx.signedTx || tx.lastValidBlockHeight === null) return { txIndex, action: "sign" };
    if (currentBlockHeight <= tx.lastValidBlockHeight) return { txIndex, action: "send" };
    if (currentBlockHeight <= tx.lastValidBlockHeight + margin) return { txIndex, action: "wait" };
    return { txIndex, action: "resign", signature: tx.signature };
  });
}

export class JobStateError extends Error {
  readonly code: "job.notResignable" | "job.noSignature" | "job.unknownTx";
  constructor(code: JobStateError["code"], message: string) {
    super(message);
    this.code = code;
  }
}

function updateTx(job: Job, txIndex: number, change: (tx: JobTx) => JobTx): Job {
  const tx = job.txs[txIndex];
  if (!tx) throw new JobStateError("job.unknownTx", `no transaction ${txIndex}`);
  return { ...job, txs: job.txs.map((t, i) => (i === txIndex ? change(t) : t)) };
}

/** Base58 signature of a signed base64 wire transaction; throws if the fee payer did not sign. */
export function signatureOfWireTransaction(base64: string): string {
  const bytes = getBase64Encoder().encode(base64);
  const transaction = getTransactionDecoder().decode(bytes);
  const first = Object.values(transaction.signatures)[0];
  if (!first || first.every((byte) => byte === 0)) throw new JobStateError("job.noSignature", "transaction not signed");
  return getSignatureFromTransaction(transaction);
}

/**
 * Records a signed transaction, to be saved before it is sent. A transaction that already has a
 * signature may be signed again only with a "resign" decision from `nextAction` about that very
 * signature (a decision cannot be used twice); the old signature is kept and checked on every
 * later resume.
 */
export function recordSigned(
  job: Job,
  txIndex: number,
  signed: { signedTx: string; lastValidBlockHeight: bigint },
  decision?: TxDecision,
): Job {
  const signature = signatureOfWireTransaction(signed.signedTx);
  return updateTx(job, txIndex, (tx) => {
    const first = tx.status === "unsigned" && tx.signature === null;
    const resign =
      decision?.txIndex === txIndex &&
      decision.action === "resign" &&
      tx.signature !== null &&
      decision.signature === tx.signature &&
      tx.status !== "confirmed" &&
      tx.status !== "failed";
    if (!first && !resign) {
      throw new JobStateError(
        "job.notResignable",
        `transaction ${txIndex} is ${tx.status}; only an expired one is signed again`,
      );
    }
    return {
      ...tx,
      status: "signed",
      signedTx: signed.signedTx,
      signature,
      lastValidBlockHeight: signed.lastValidBlockHeight,
      expiredSignatures: tx.signature ? [...tx.expiredSignatures, tx.signature] : tx.expiredSignatures,
    };
  });
}

/** Marks a transaction as handed to the network (sendTransaction answered or timed out). */
export function recordSent(job: Job, txIndex: number): Job {
  return updateTx(job, txIndex, (tx) => (tx.status === "signed" ? { ...tx, status: "sent" } : tx));
}

/** Applies the final decisions ("confirmed", "failed") to the job. */
export function applyDecisions(job: Job, decisions: readonly TxDecision[]): Job {
  let out = job;
  for (const decision of decisions) {
    if (decision.action === "confirmed") {
      out = updateTx(out, decision.txIndex, (tx) => ({
        ...tx,
        status: "confirmed",
        signature: decision.signature ?? tx.signature,
      }));
    } else if (decision.action === "failed") {
      out = updateTx(out, decision.txIndex, (tx) => ({ ...tx, status: "failed", error: decision.error ?? null }));
    }
  }
  return out;
}

/** A new job: every transaction unsigned. */
export function createJob(input: {
  id: string;
  createdAt: string;
  sender: string;
  asset: TransferAsset;
  rows: JobRow[];
  /** From `planTransfers(...).transactions`, each with the compute budget chosen before signing. */
  txs: readonly { rowIdxs: readonly number[]; creates?: readonly string[]; computeBudget?: ComputeBudget | null }[];
}): Job {
  return {
    id: input.id,
    createdAt: input.createdAt,
    sender: input.sender,
    asset: input.asset,
    rows: input.rows,
    txs: input.txs.map((tx) => ({
      rowIdxs: [...tx.rowIdxs],
      creates: [...(tx.creates ?? [])],
      computeBudget: tx.computeBudget ?? null,
      status: "unsigned",
      signedTx: null,
      signature: null,
      lastValidBlockHeight: null,
      expiredSignatures: [],
      error: null,
    })),
  };
}

export function isJobFinished(job: Job): boolean {
  return job.txs.every((tx) => tx.status === "confirmed" || tx.status === "failed");
}

export type RowStatus = "pending" | "sent" | "confirmed" | "failed";

/** Per-row status and signature, in row order, for the table and the progress bar. */
export function rowStatuses(job: Job): { index: number; status: RowStatus; signature: string | null }[] {
  const byRow = new Map<number, JobTx>();
  for (const tx of job.txs) for (const idx of tx.rowIdxs) byRow.set(idx, tx);
  return job.rows.map((row) => {
    const tx = byRow.get(row.index);
    const status: RowStatus =
      !tx || tx.status === "unsigned" || tx.status === "signed" ? "pending" : tx.status === "sent" ? "sent" : tx.status;
    return { index: row.index, status, signature: tx?.signature ?? null };
  });
}

/** Results file: line, address, amount (decimal), status, signature. */
export function jobResultsCsv(job: Job): string {
  const decimals = job.asset.kind === "sol" ? SOL_DECIMALS : job.asset.decimals;
  const statuses = new Map(rowStatuses(job).map((s) => [s.index, s]));
  return toCsv([
    ["line", "address", "amount", "status", "signature"],
    ...job.rows.map((row) => {
      const s = statuses.get(row.index);
      return [row.line, row.address, formatAmount(row.amount, decimals), s?.status ?? "pending", s?.signature ?? ""];
    }),
  ]);
}

/** Where jobs live between page loads (IndexedDB in the browser; memory in tests). */
export interface JobStore {
  put(job: Job): Promise<void>;
  get(id: string): Promise<Job | null>;
  list(): Promise<Job[]>;
  delete(id: string): Promise<void>;
}

export function createMemoryJobStore(): JobStore {
  const jobs = new Map<string, Job>();
  return {
    async put(job) {
      jobs.set(job.id, structuredClone(job));
    },
    async get(id) {
      const job = jobs.get(id);
      return job ? structuredClone(job) : null;
    },
    async list() {
      return [...jobs.values()].map((job) => structuredClone(job));
    },
    async delete(id) {
      jobs.delete(id);
    },
  };
}
