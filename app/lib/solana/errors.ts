/**
 * Sorts wallet, RPC and transaction failures into the few kinds a reader can act on, so the pages
 * show a sentence in the page's language (`errors.<kind>` in the "solana" strings) and keep the raw
 * cause as details. Pure code: no React, no network.
 */

import {
  getSolanaErrorFromTransactionError,
  isSolanaError,
  SOLANA_ERROR__ACCOUNTS__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__INSTRUCTION_ERROR__ILLEGAL_OWNER,
  SOLANA_ERROR__INSTRUCTION_ERROR__INCORRECT_PROGRAM_ID,
  SOLANA_ERROR__INSTRUCTION_ERROR__INSUFFICIENT_FUNDS,
  SOLANA_ERROR__INSTRUCTION_ERROR__INVALID_ACCOUNT_OWNER,
  SOLANA_ERROR__INSTRUCTION_ERROR__UNINITIALIZED_ACCOUNT,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SOLANA_ERROR__TRANSACTION__EXCEEDS_SIZE_LIMIT,
  SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT,
  SOLANA_ERROR__TRANSACTION_ERROR__INVALID_ACCOUNT_FOR_FEE,
  SOLANA_ERROR__TRANSACTION_ERROR__MISSING_SIGNATURE_FOR_FEE,
  SOLANA_ERROR__TRANSACTION_ERROR__PROGRAM_ACCOUNT_NOT_FOUND,
  SOLANA_ERROR__TRANSACTION_ERROR__SIGNATURE_FAILURE,
  SOLANA_ERROR__WALLET__ACCOUNT_NOT_AVAILABLE,
  SOLANA_ERROR__WALLET__NO_SIGNER_CONNECTED,
  SOLANA_ERROR__WALLET__NOT_CONNECTED,
  type SolanaError,
} from "@solana/kit";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  TOKEN_2022_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
} from "./transfer-plan.ts";

/** What went wrong, in terms the reader can act on; `unknown` keeps only the details. */
export const ERROR_KINDS = [
  "rejected",
  "insufficientFee",
  "insufficientSol",
  "insufficientRent",
  "insufficientTokens",
  "blockhashExpired",
  "accountNotFound",
  "invalidOwner",
  "tooLarge",
  "rateLimited",
  "rpcUnavailable",
  "notConnected",
  "unsupported",
  "notConfirmed",
  "badSignature",
  "unknown",
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export interface ClassifiedError {
  kind: ErrorKind;
  /** The raw cause in the words of the wallet, RPC or library (English), for the details line. */
  detail: string;
}

/** A failure our own code raises, already sorted. */
export class SolanaToolError extends Error {
  readonly kind: ErrorKind;
  constructor(kind: ErrorKind, message: string) {
    super(message);
    this.name = "SolanaToolError";
    this.kind = kind;
  }
}

const SPL_TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]);
const SYSTEM_PROGRAM = "11111111111111111111111111111111";
const ATA_PROGRAM: string = ASSOCIATED_TOKEN_PROGRAM_ADDRESS;

/** The program whose failure the logs end with, and its custom error code when it gave one. */
function failingProgram(logs: readonly string[]): { program: string; custom: number | null } | null {
  for (let i = logs.length - 1; i >= 0; i--) {
    const match = /^Program (\w+) failed: (.*)$/.exec(logs[i] ?? "");
    if (!match) continue;
    const custom = /custom program error: 0x([0-9a-f]+)/i.exec(match[2] ?? "");
    return { program: match[1] ?? "", custom: custom ? Number.parseInt(custom[1] ?? "", 16) : null };
  }
  return null;
}

/** A custom program error: what it means for the programs our transactions call. */
function customKind(code: number, logs: readonly string[]): ErrorKind | null {
  const failing = failingProgram(logs);
  const program = failing?.program ?? null;
  if (program && SPL_TOKEN_PROGRAMS.has(program)) {
    if (code === 1) return "insufficientTokens";
    // OwnerMismatch, MintMismatch: the account is not the one the instruction expects.
    if (code === 4 || code === 3) return "invalidOwner";
    return null;
  }
  if (program === SYSTEM_PROGRAM && code === 1) return "insufficientSol";
  if (program === ATA_PROGRAM && code === 0) return "invalidOwner";
  return null;
}

/** What the simulation or execution logs say, when they name a shortfall. */
function logsKind(logs: readonly string[]): ErrorKind | null {
  const text = logs.join("\n");
  if (/insufficient lamports/i.test(text)) return "insufficientSol";
  if (/Error: insufficient funds/i.test(text)) {
    const failing = failingProgram(logs);
    return failing && failing.program === SYSTEM_PROGRAM ? "insufficientSol" : "insufficientTokens";
  }
  return null;
}

function contextOf(error: SolanaError): Readonly<Record<string, unknown>> {
  return { ...error.context };
}

function solanaErrorKind(error: SolanaError, logs: readonly string[]): ErrorKind | null {
  const context = contextOf(error);
  const allLogs = logs.length > 0 ? logs : logsOf(error);
  switch (context.__code) {
    case SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR:
      return context.statusCode === 429 ? "rateLimited" : "rpcUnavailable";
    case SOLANA_ERROR__JSON_RPC__SERVER_ERROR_NODE_UNHEALTHY:
      return "rpcUnavailable";
    case SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_FEE:
      return "insufficientFee";
    case SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT:
      return "insufficientRent";
    case SOLANA_ERROR__INSTRUCTION_ERROR__INSUFFICIENT_FUNDS:
      return logsKind(allLogs) ?? "insufficientSol";
    case SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND:
    case SOLANA_ERROR__BLOCK_HEIGHT_EXCEEDED:
      return "blockhashExpired";
    case SOLANA_ERROR__TRANSACTION_ERROR__ACCOUNT_NOT_FOUND:
    case SOLANA_ERROR__TRANSACTION_ERROR__PROGRAM_ACCOUNT_NOT_FOUND:
    case SOLANA_ERROR__ACCOUNTS__ACCOUNT_NOT_FOUND:
    case SOLANA_ERROR__INSTRUCTION_ERROR__UNINITIALIZED_ACCOUNT:
      return "accountNotFound";
    case SOLANA_ERROR__INSTRUCTION_ERROR__INVALID_ACCOUNT_OWNER:
    case SOLANA_ERROR__INSTRUCTION_ERROR__ILLEGAL_OWNER:
    case SOLANA_ERROR__INSTRUCTION_ERROR__INCORRECT_PROGRAM_ID:
    case SOLANA_ERROR__TRANSACTION_ERROR__INVALID_ACCOUNT_FOR_FEE:
      return "invalidOwner";
    case SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM:
      return typeof context.code === "number" ? customKind(context.code, allLogs) : null;
    case SOLANA_ERROR__TRANSACTION__EXCEEDS_SIZE_LIMIT:
      return "tooLarge";
    case SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE:
    case SOLANA_ERROR__TRANSACTION_ERROR__SIGNATURE_FAILURE:
    case SOLANA_ERROR__TRANSACTION_ERROR__MISSING_SIGNATURE_FOR_FEE:
      return "badSignature";
    case SOLANA_ERROR__WALLET__NOT_CONNECTED:
    case SOLANA_ERROR__WALLET__NO_SIGNER_CONNECTED:
    case SOLANA_ERROR__WALLET__ACCOUNT_NOT_AVAILABLE:
      return "notConnected";
  }
  if (error.cause !== undefined) {
    const inner = kindOf(error.cause, allLogs);
    if (inner !== "unknown") return inner;
  }
  return logsKind(allLogs);
}

/** The message of an Error or of an error-shaped object (wallets reject with `{code, message}`). */
function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message;
  }
  return typeof error === "string" ? error : "";
}

function numericCode(error: unknown): number | null {
  if (typeof error !== "object" || error === null || !("code" in error)) return null;
  const code = Number(error.code);
  return Number.isFinite(code) ? code : null;
}

/** Wallet and JSON-RPC codes: EIP-1193 style (Phantom and others) and WalletConnect's SDK codes. */
function codeKind(code: number): ErrorKind | null {
  if (code === 4001 || code === 5000) return "rejected";
  if (code === 4100 || code === 4900 || code === 4901) return "notConnected";
  if (code === 4200 || code === -32601 || (code >= 5100 && code <= 5103)) return "unsupported";
  if (code === 429) return "rateLimited";
  return null;
}

function textKind(text: string): ErrorKind | null {
  if (/\b(user )?(rejected|denied|declined|cancell?ed)\b/i.test(text)) return "rejected";
  if (/insufficient funds for fee/i.test(text)) return "insufficientFee";
  if (/insufficient funds for rent/i.test(text)) return "insufficientRent";
  if (/insufficient lamports/i.test(text)) return "insufficientSol";
  if (/blockhash not found|block height exceeded|blockhash.{0,20}expired/i.test(text)) return "blockhashExpired";
  if (/\btoo large\b|exceeds? (the )?size limit/i.test(text)) return "tooLarge";
  if (/signature verification fail|SignatureFailure|missing signature for fee/i.test(text)) return "badSignature";
  if (/\b429\b|too many requests|rate.?limit/i.test(text)) return "rateLimited";
  if (/failed to fetch|fetch failed|networkerror|load failed|network request failed|econnrefused/i.test(text)) {
    return "rpcUnavailable";
  }
  if (/not connected|no account/i.test(text)) return "notConnected";
  if (/could not find account|account not found|AccountNotFound/i.test(text)) return "accountNotFound";
  if (/\bcannot (sign|send|connect)\b|\bunsupported\b|not supported|method not found/i.test(text)) {
    return "unsupported";
  }
  return null;
}

function kindOf(error: unknown, logs: readonly string[]): ErrorKind {
  if (error instanceof SolanaToolError) return error.kind;
  if (isSolanaError(error)) return solanaErrorKind(error, logs) ?? textKind(messageOf(error)) ?? "unknown";
  const code = numericCode(error);
  const byCode = code === null ? null : codeKind(code);
  if (byCode) return byCode;
  const byText = textKind(messageOf(error)) ?? logsKind(logs);
  if (byText) return byText;
  if (error instanceof Error && error.cause !== undefined) return kindOf(error.cause, logs);
  return "unknown";
}

/** Production builds of @solana/kit give only a code; keep it with the context's plain values. */
function solanaErrorDetail(error: SolanaError): string {
  const context = contextOf(error);
  if (context.__code === SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) {
    return `HTTP ${String(context.statusCode)}${typeof context.message === "string" && context.message ? ` ${context.message}` : ""}`;
  }
  let own: string;
  if (typeof context.__serverMessage === "string") own = context.__serverMessage;
  else if (!error.message.startsWith("Solana error #")) own = error.message;
  else {
    const plain = Object.entries(context).filter(
      ([key, value]) => key !== "__code" && (typeof value === "string" || typeof value === "number"),
    );
    own = `Solana error #${String(context.__code)}${plain.length > 0 ? ` ${JSON.stringify(Object.fromEntries(plain))}` : ""}`;
  }
  return error.cause !== undefined ? `${own}; ${detailOf(error.cause)}` : own;
}

function detailOf(error: unknown): string {
  if (isSolanaError(error)) return solanaErrorDetail(error);
  const message = messageOf(error);
  const code = numericCode(error);
  if (message) return code !== null && !message.includes(String(code)) ? `${message} (code ${code})` : message;
  if (typeof error === "object" && error !== null) {
    try {
      return JSON.stringify(error);
    } catch {
      return String(error);
    }
  }
  return String(error);
}

/** The last log lines that explain a failure (a program's own error text and its failure line). */
function logsDetail(logs: readonly string[]): string {
  const telling = logs.filter((l) => /failed|error|insufficient/i.test(l));
  return telling.slice(-2).join(" | ");
}

/**
 * Sorts a thrown error (from the wallet, the RPC client, fetch or our code). Simulation or
 * execution `logs`, when known, help to tell a token shortfall from a SOL one.
 */
export function classifyError(error: unknown, logs: readonly string[] = []): ClassifiedError {
  const detail = detailOf(error);
  const allLogs = logs.length > 0 ? logs : logsOf(error);
  const fromLogs = logsDetail(allLogs);
  return {
    kind: kindOf(error, allLogs),
    detail: fromLogs && !detail.includes(fromLogs) ? `${detail} | ${fromLogs}` : detail,
  };
}

/** The simulation logs a failed preflight carries. */
function logsOf(error: unknown): readonly string[] {
  if (!isSolanaError(error)) return [];
  const { logs } = contextOf(error);
  return Array.isArray(logs) ? logs.filter((l): l is string => typeof l === "string") : [];
}

/**
 * Sorts a transaction error as the RPC reports it (`simulateTransaction`'s and
 * `getSignatureStatuses`' `err`: `"BlockhashNotFound"`, `{"InstructionError":[1,{"Custom":1}]}`…).
 */
export function classifyTransactionError(err: unknown, logs: readonly string[] = []): ClassifiedError {
  // The RPC client turns every number into a bigint: write small ones back as JSON numbers.
  const text =
    JSON.stringify(err, (_key, value) =>
      typeof value === "bigint" ? (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString()) : value,
    ) ?? "";
  let kind: ErrorKind = "unknown";
  if (typeof err === "string" || (typeof err === "object" && err !== null)) {
    try {
      const solanaError = getSolanaErrorFromTransactionError(
        err as Parameters<typeof getSolanaErrorFromTransactionError>[0],
      );
      kind = solanaErrorKind(solanaError, logs) ?? "unknown";
    } catch {
      kind = "unknown";
    }
  }
  if (kind === "unknown") kind = logsKind(logs) ?? textKind(text) ?? "unknown";
  const fromLogs = logsDetail(logs);
  return { kind, detail: fromLogs ? `${text} | ${fromLogs}` : text };
}
