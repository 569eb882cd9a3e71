import {
  getSolanaErrorFromJsonRpcError,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SOLANA_ERROR__TRANSACTION__EXCEEDS_SIZE_LIMIT,
  SOLANA_ERROR__WALLET__NOT_CONNECTED,
  SolanaError,
} from "@solana/kit";
import { describe, expect, it } from "vitest";
import { classifyError, classifyTransactionError, SolanaToolError } from "./errors.ts";

const TOKEN = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const TOKEN_2022 = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const SYSTEM = "11111111111111111111111111111111";
const ATA = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL";

const tokenShortLogs = (program: string) => [
  `Program ${program} invoke [1]`,
  "Program log: Instruction: TransferChecked",
  "Program log: Error: insufficient funds",
  `Program ${program} consumed 4000 of 200000 compute units`,
  `Program ${program} failed: custom program error: 0x1`,
];

describe("classifyError: wallets", () => {
  it("takes code 4001 and rejection words as the reader's refusal", () => {
    expect(classifyError({ code: 4001, message: "User rejected the request." })).toEqual({
      kind: "rejected",
      detail: "User rejected the request. (code 4001)",
    });
    expect(classifyError({ code: 5000, message: "User rejected." }).kind).toBe("rejected");
    expect(classifyError(new Error("Transaction cancelled")).kind).toBe("rejected");
    expect(classifyError(new Error("The user declined the request")).kind).toBe("rejected");
  });

  it("tells a missing connection and a missing feature apart", () => {
    expect(classifyError({ code: 4100, message: "The requested method has not been authorized" }).kind).toBe(
      "notConnected",
    );
    expect(classifyError(new SolanaError(SOLANA_ERROR__WALLET__NOT_CONNECTED, { operation: "sign" })).kind).toBe(
      "notConnected",
    );
    expect(classifyError(new SolanaToolError("unsupported", "wallet cannot sign transactions"))).toEqual({
      kind: "unsupported",
      detail: "wallet cannot sign transactions",
    });
    expect(classifyError({ code: 5101, message: "Unsupported methods" }).kind).toBe("unsupported");
    expect(classifyError({ code: 4200, message: "Method not supported" }).kind).toBe("unsupported");
  });
});

describe("classifyError: RPC and network", () => {
  it("sorts fetch failures and HTTP statuses, naming the status in the details", () => {
    expect(classifyError(new TypeError("Failed to fetch")).kind).toBe("rpcUnavailable");
    expect(classifyError(new TypeError("fetch failed")).kind).toBe("rpcUnavailable");
    const http = (statusCode: number, message: string) =>
      new SolanaError(SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR, { headers: new Headers(), message, statusCode });
    expect(classifyError(http(429, "Too Many Requests"))).toEqual({
      kind: "rateLimited",
      detail: "HTTP 429 Too Many Requests",
    });
    expect(classifyError(http(503, "Service Unavailable"))).toEqual({
      kind: "rpcUnavailable",
      detail: "HTTP 503 Service Unavailable",
    });
  });

  it("reads a failed preflight through to its transaction error and logs", () => {
    const preflight = (err: unknown, logs: string[]) =>
      getSolanaErrorFromJsonRpcError({
        code: -32002,
        message: "Transaction simulation failed",
        data: { err, logs, accounts: null, unitsConsumed: 0 },
      });
    expect(classifyError(preflight("BlockhashNotFound", [])).kind).toBe("blockhashExpired");
    expect(classifyError(preflight("InsufficientFundsForFee", [])).kind).toBe("insufficientFee");
    expect(classifyError(preflight({ InsufficientFundsForRent: { account_index: 2 } }, [])).kind).toBe(
      "insufficientRent",
    );
    const short = classifyError(preflight({ InstructionError: [1, { Custom: 1 }] }, tokenShortLogs(TOKEN)));
    expect(short.kind).toBe("insufficientTokens");
    expect(short.detail).toContain("Error: insufficient funds");
  });

  it("says a bad signature is the wallet's doing, not 'something went wrong'", () => {
    const refused = getSolanaErrorFromJsonRpcError({
      code: -32003,
      message: "Transaction signature verification failure",
    });
    expect(classifyError(refused).kind).toBe("badSignature");
    expect(
      classifyError(
        getSolanaErrorFromJsonRpcError({
          code: -32002,
          message: "Transaction simulation failed",
          data: { err: "SignatureFailure", logs: [], accounts: null, unitsConsumed: 0 },
        }),
      ).kind,
    ).toBe("badSignature");
    expect(classifyTransactionError("SignatureFailure").kind).toBe("badSignature");
  });

  it("recognises a transaction over the size limit", () => {
    expect(
      classifyError(
        new SolanaError(SOLANA_ERROR__TRANSACTION__EXCEEDS_SIZE_LIMIT, {
          transactionSize: 1300,
          transactionSizeLimit: 1232,
        }),
      ).kind,
    ).toBe("tooLarge");
    expect(classifyError(new Error("transaction too large: 1300 bytes (max: encoded/raw 1644/1232)")).kind).toBe(
      "tooLarge",
    );
  });

  it("keeps what it cannot sort as unknown, with the whole message as details", () => {
    expect(classifyError(new Error("something odd"))).toEqual({ kind: "unknown", detail: "something odd" });
    expect(classifyError("plain text")).toEqual({ kind: "unknown", detail: "plain text" });
    expect(classifyError({ weird: true })).toEqual({ kind: "unknown", detail: '{"weird":true}' });
  });
});

describe("classifyTransactionError", () => {
  it("sorts the transaction-level errors", () => {
    expect(classifyTransactionError("BlockhashNotFound").kind).toBe("blockhashExpired");
    expect(classifyTransactionError("AccountNotFound").kind).toBe("accountNotFound");
    expect(classifyTransactionError("InsufficientFundsForFee").kind).toBe("insufficientFee");
    expect(classifyTransactionError({ InsufficientFundsForRent: { account_index: 1 } }).kind).toBe("insufficientRent");
  });

  it("tells token shortfalls (Token and Token-2022) from SOL ones by the failing program", () => {
    const custom1 = { InstructionError: [0, { Custom: 1 }] };
    expect(classifyTransactionError(custom1, tokenShortLogs(TOKEN)).kind).toBe("insufficientTokens");
    expect(classifyTransactionError(custom1, tokenShortLogs(TOKEN_2022)).kind).toBe("insufficientTokens");
    const systemLogs = [
      `Program ${SYSTEM} invoke [1]`,
      "Transfer: insufficient lamports 1000, need 5000",
      `Program ${SYSTEM} failed: custom program error: 0x1`,
    ];
    const sol = classifyTransactionError(custom1, systemLogs);
    expect(sol.kind).toBe("insufficientSol");
    expect(sol.detail).toBe(
      `{"InstructionError":[0,{"Custom":1}]} | Transfer: insufficient lamports 1000, need 5000 | Program ${SYSTEM} failed: custom program error: 0x1`,
    );
    // Custom 1 of another program means something else.
    expect(classifyTransactionError(custom1, [`Program ${ATA} failed: custom program error: 0x1`]).kind).toBe(
      "unknown",
    );
    expect(classifyTransactionError(custom1).kind).toBe("unknown");
  });

  it("sorts owner mismatches", () => {
    expect(classifyTransactionError({ InstructionError: [0, "InvalidAccountOwner"] }).kind).toBe("invalidOwner");
    expect(classifyTransactionError({ InstructionError: [0, "IncorrectProgramId"] }).kind).toBe("invalidOwner");
    expect(
      classifyTransactionError({ InstructionError: [2, { Custom: 4 }] }, [
        `Program ${TOKEN} failed: custom program error: 0x4`,
      ]).kind,
    ).toBe("invalidOwner");
    expect(
      classifyTransactionError({ InstructionError: [0, { Custom: 0 }] }, [
        `Program ${ATA} failed: custom program error: 0x0`,
      ]).kind,
    ).toBe("invalidOwner");
    expect(classifyTransactionError({ InstructionError: [0, "UninitializedAccount"] }).kind).toBe("accountNotFound");
  });

  it("reads the bigints the RPC client gives as plain numbers", () => {
    const fromClient = classifyTransactionError({ InstructionError: [0n, { Custom: 1n }] }, tokenShortLogs(TOKEN));
    expect(fromClient.kind).toBe("insufficientTokens");
    expect(fromClient.detail.startsWith('{"InstructionError":[0,{"Custom":1}]} | ')).toBe(true);
  });

  it("falls back to unknown for errors it has no words for", () => {
    expect(classifyTransactionError("AccountInUse").kind).toBe("unknown");
    expect(classifyTransactionError({ Unheard: 1 }).kind).toBe("unknown");
  });
});
