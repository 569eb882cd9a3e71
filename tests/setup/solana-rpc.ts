import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
} from "@solana/kit";
import {
  AccountState,
  getMintDecoder,
  getMintEncoder,
  getTokenDecoder,
  getTokenEncoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { METAPLEX_METADATA_PROGRAM, metaplexMetadataAddress } from "../../app/lib/solana/token-metadata.ts";
import { TOKEN_2022_PROGRAM_ADDRESS } from "../../app/lib/solana/transfer-plan.ts";
import { metaplexMetadataBytes } from "./solana-metadata.ts";

// Long on purpose (~490 lines): each RPC method the /solana pages call, answered
// from one litesvm instance whose state they all share.
/**
 * A Solana JSON-RPC endpoint for tests (browser and runner), executing on litesvm: only the methods the
 * /solana pages call. Token accounts are found among the addresses the test registered.
 */
export interface TestRpc {
  url: string;
  svm: LiteSVM;
  /** Token accounts the test created (getTokenAccountsByOwner searches these). */
  tokenAccounts: Set<Address>;
  /** Answers the n-th sendTransaction (1-based) with HTTP 503, without executing it. */
  dropSend: number | null;
  /** Refuses the next sendTransaction as a node does a bad signature (-32003), without executing it. */
  refuseSignature: boolean;
  sendCount: number;
  /** The block height the RPC reports (raise it to expire blockhashes). */
  blockHeight: number;
  /** Signatures that landed, by base58 signature. */
  landed: Map<string, { slot: number; err: unknown }>;
  /** The compute budget of every transaction that landed through sendTransaction, in order. */
  sentBudgets: { unitLimit: number | null; unitPrice: bigint | null }[];
  /** What getRecentPrioritizationFees reports (micro-lamports per unit, one per recent slot). */
  recentFees: number[];
  /** The addresses the last getRecentPrioritizationFees asked about. */
  feeQueries: string[][];
  /** A token account (base layout, no extensions) under Token, or Token-2022 with `program`. */
  addTokenAccount(address: Address, input: { mint: Address; owner: Address; amount: bigint; program?: Address }): void;
  addMint(address: Address, input: { decimals: number; supply: bigint; program?: Address }): void;
  /** A Metaplex metadata account naming the mint, at its program-derived address. */
  addMetaplexMetadata(mint: Address, input: { name: string; symbol: string }): Promise<void>;
  close(): Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// litesvm's fieldless errors are numbers (const enums, not available at run time): their names in order.
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
];

/** A failed transaction's error in the JSON shape a Solana RPC answers (`err` of simulate/status). */
function rpcError(failed: FailedTransactionMetadata): Json {
  const err: unknown = failed.err();
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? String(err);
  if (typeof err !== "object" || err === null) return String(err);
  if ("index" in err && typeof err.index === "number" && "err" in err && typeof err.err === "function") {
    const inner: unknown = err.err();
    const detail: Json =
      typeof inner === "number"
        ? (INSTRUCTION_ERRORS[inner] ?? String(inner))
        : typeof inner === "object" && inner !== null && "code" in inner && typeof inner.code === "number"
          ? { Custom: inner.code }
          : String(inner);
    return { InstructionError: [err.index, detail] };
  }
  if ("accountIndex" in err && typeof err.accountIndex === "number") {
    return { InsufficientFundsForRent: { account_index: err.accountIndex } };
  }
  return String(err);
}

/** Thrown by a handler to answer a JSON-RPC error with data (a failed preflight). */
class RpcFailure extends Error {
  readonly code: number;
  readonly data: Json;
  constructor(code: number, message: string, data: Json) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/** The extensions of a Token-2022 account (type-length-value entries after the account type byte). */
function tokenExtensions(data: Uint8Array): string[] {
  const names: Record<number, string> = { 7: "immutableOwner" };
  const out: string[] = [];
  let offset = 166;
  while (offset + 4 <= data.length) {
    const type = (data[offset] ?? 0) | ((data[offset + 1] ?? 0) << 8);
    const length = (data[offset + 2] ?? 0) | ((data[offset + 3] ?? 0) << 8);
    if (type === 0) break;
    out.push(names[type] ?? `extension${type}`);
    offset += 4 + length;
  }
  return out;
}

/** The SetComputeUnitLimit (2) and SetComputeUnitPrice (3) values a message carries, if any. */
function computeBudgetOf(
  messageBytes: Parameters<ReturnType<typeof getCompiledTransactionMessageDecoder>["decode"]>[0],
): { unitLimit: number | null; unitPrice: bigint | null } {
  const message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  const out: { unitLimit: number | null; unitPrice: bigint | null } = { unitLimit: null, unitPrice: null };
  if (!("instructions" in message)) return out;
  for (const ix of message.instructions) {
    if (message.staticAccounts[ix.programAddressIndex] !== "ComputeBudget111111111111111111111111111111") continue;
    const data = ix.data ?? new Uint8Array();
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2 && data.length >= 5) out.unitLimit = view.getUint32(1, true);
    if (data[0] === 3 && data.length >= 9) out.unitPrice = view.getBigUint64(1, true);
  }
  return out;
}

const BLOCK_HEIGHT = 1000;
const SLOT = 1000;

export async function startTestRpc(): Promise<TestRpc> {
  const svm = new LiteSVM();
  const b58 = getBase58Decoder();
  const b64 = getBase64Decoder();
  const fromB64 = getBase64Encoder();
  const ctx = { slot: SLOT };

  const state: Omit<TestRpc, "url" | "close"> = {
    svm,
    tokenAccounts: new Set(),
    dropSend: null,
    refuseSignature: false,
    sendCount: 0,
    blockHeight: BLOCK_HEIGHT,
    landed: new Map(),
    recentFees: [0, 0, 2_000, 5_000, 20_000],
    sentBudgets: [],
    feeQueries: [],
    addTokenAccount(address, { mint, owner, amount, program = TOKEN_PROGRAM_ADDRESS }) {
      const data = new Uint8Array(
        getTokenEncoder().encode({
          mint,
          owner,
          amount,
          delegate: null,
          state: AccountState.Initialized,
          isNative: null,
          delegatedAmount: 0n,
          closeAuthority: null,
        }),
      );
      svm.setAccount({
        address,
        lamports: lamports(svm.minimumBalanceForRentExemption(165n)),
        programAddress: program,
        executable: false,
        data,
        space: 165n,
      });
      state.tokenAccounts.add(address);
    },
    addMint(address, { decimals, supply, program = TOKEN_PROGRAM_ADDRESS }) {
      const data = new Uint8Array(
        getMintEncoder().encode({ mintAuthority: null, supply, decimals, isInitialized: true, freezeAuthority: null }),
      );
      svm.setAccount({
        address,
        lamports: lamports(svm.minimumBalanceForRentExemption(82n)),
        programAddress: program,
        executable: false,
        data,
        space: 82n,
      });
    },
    async addMetaplexMetadata(mint, { name, symbol }) {
      const data = metaplexMetadataBytes(mint, name, symbol);
      svm.setAccount({
        address: await metaplexMetadataAddress(mint),
        lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(data.length))),
        programAddress: METAPLEX_METADATA_PROGRAM,
        executable: false,
        data,
        space: BigInt(data.length),
      });
    },
  };

  /** A mint's decimals, as a real RPC reports them in each token account's tokenAmount. */
  function mintDecimals(mint: Address): number {
    const account = svm.getAccount(mint);
    return account.exists && account.data.length === 82 ? getMintDecoder().decode(account.data).decimals : 0;
  }

  function accountJson(address: Address, encoding: string): Json {
    const account = svm.getAccount(address);
    if (!account.exists) return null;
    const base = {
      lamports: Number(account.lamports),
      owner: account.programAddress,
      executable: account.executable,
      rentEpoch: 0,
      space: account.data.length,
    };
    const tokenProgram =
      account.programAddress === TOKEN_PROGRAM_ADDRESS || account.programAddress === TOKEN_2022_PROGRAM_ADDRESS;
    const programName = account.programAddress === TOKEN_PROGRAM_ADDRESS ? "spl-token" : "spl-token-2022";
    // A Token-2022 account may carry extensions after the 165-byte base (an account type byte, then TLV).
    const isTokenAccount =
      account.data.length === 165 ||
      (account.programAddress === TOKEN_2022_PROGRAM_ADDRESS && account.data.length > 165 && account.data[165] === 2);
    if (encoding === "jsonParsed" && tokenProgram && isTokenAccount) {
      const token = getTokenDecoder().decode(account.data.subarray(0, 165));
      const extensions = tokenExtensions(account.data);
      return {
        ...base,
        data: {
          program: programName,
          space: account.data.length,
          parsed: {
            type: "account",
            info: {
              mint: token.mint,
              owner: token.owner,
              isNative: false,
              state: token.state === AccountState.Frozen ? "frozen" : "initialized",
              tokenAmount: {
                amount: token.amount.toString(),
                decimals: mintDecimals(token.mint),
                uiAmount: Number(token.amount) / 10 ** mintDecimals(token.mint),
                uiAmountString: (Number(token.amount) / 10 ** mintDecimals(token.mint)).toString(),
              },
              ...(extensions.length > 0 ? { extensions: extensions.map((extension) => ({ extension })) } : null),
            },
          },
        },
      };
    }
    if (encoding === "jsonParsed" && tokenProgram && account.data.length === 82) {
      const mint = getMintDecoder().decode(account.data);
      return {
        ...base,
        data: {
          program: programName,
          space: 82,
          parsed: {
            type: "mint",
            info: { decimals: mint.decimals, supply: mint.supply.toString(), isInitialized: true },
          },
        },
      };
    }
    return { ...base, data: [b64.decode(account.data), "base64"] };
  }

  function decodeTx(base64: string) {
    return getTransactionDecoder().decode(fromB64.encode(base64));
  }

  const methods: Record<string, (params: Json[]) => Json> = {
    getLatestBlockhash: () => ({
      context: ctx,
      value: { blockhash: svm.latestBlockhash(), lastValidBlockHeight: state.blockHeight + 150 },
    }),
    getBlockHeight: () => state.blockHeight,
    getBalance: ([address]) => ({ context: ctx, value: Number(svm.getBalance(address as Address) ?? 0n) }),
    getMinimumBalanceForRentExemption: ([size]) => Number(svm.minimumBalanceForRentExemption(BigInt(size as number))),
    getFeeForMessage: () => ({ context: ctx, value: 5000 }),
    getAccountInfo: ([address, config]) => ({
      context: ctx,
      value: accountJson(address as Address, (config as { encoding?: string } | null)?.encoding ?? "base64"),
    }),
    getRecentPrioritizationFees: ([addresses]) => {
      state.feeQueries.push((addresses as string[] | undefined) ?? []);
      return state.recentFees.map((prioritizationFee, i) => ({ slot: SLOT - i, prioritizationFee }));
    },
    getMultipleAccounts: ([addresses, config]) => ({
      context: ctx,
      value: (addresses as string[]).map((a) =>
        accountJson(a as Address, (config as { encoding?: string } | null)?.encoding ?? "base64"),
      ),
    }),
    getTokenAccountsByOwner: ([owner, filter]) => {
      const programId = (filter as { programId?: string }).programId;
      const value =
        programId === TOKEN_PROGRAM_ADDRESS || programId === TOKEN_2022_PROGRAM_ADDRESS
          ? [...state.tokenAccounts]
              .filter((address) => {
                const account = svm.getAccount(address);
                return account.exists && account.programAddress === programId;
              })
              .map((address) => ({ pubkey: address, account: accountJson(address, "jsonParsed") }))
              .filter((entry) => {
                const account = entry.account as { data?: { parsed?: { info?: { owner?: string } } } } | null;
                return account?.data?.parsed?.info?.owner === owner;
              })
          : [];
      return { context: ctx, value };
    },
    simulateTransaction: ([tx]) => {
      svm.withSigverify(false);
      try {
        const result = svm.simulateTransaction(decodeTx(tx as string));
        if (result instanceof FailedTransactionMetadata) {
          return { context: ctx, value: { err: rpcError(result), logs: result.meta().logs(), unitsConsumed: 0 } };
        }
        return {
          context: ctx,
          value: { err: null, logs: result.meta().logs(), unitsConsumed: Number(result.meta().computeUnitsConsumed()) },
        };
      } finally {
        svm.withSigverify(true);
      }
    },
    sendTransaction: ([tx]) => {
      if (state.refuseSignature) {
        state.refuseSignature = false;
        throw new RpcFailure(-32003, "Transaction signature verification failure", null);
      }
      const decoded = decodeTx(tx as string);
      const result = svm.sendTransaction(decoded);
      if (result instanceof FailedTransactionMetadata) {
        throw new RpcFailure(-32002, "Transaction simulation failed", {
          err: rpcError(result),
          logs: result.meta().logs(),
          accounts: null,
          unitsConsumed: 0,
        });
      }
      const signature = b58.decode(result.signature());
      state.landed.set(signature, { slot: SLOT, err: null });
      state.sentBudgets.push(computeBudgetOf(decoded.messageBytes));
      return signature;
    },
    getSignatureStatuses: ([signatures]) => ({
      context: ctx,
      value: (signatures as string[]).map((s) => {
        const landed = state.landed.get(s);
        return landed
          ? { slot: landed.slot, confirmations: null, err: null, status: { Ok: null }, confirmationStatus: "finalized" }
          : null;
      }),
    }),
  };

  const server: Server = createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Headers", "content-type, solana-client");
    res.setHeader("Access-Control-Allow-Methods", "POST, OPTIONS");
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { id: Json; method: string; params?: Json[] };
      if (body.method === "sendTransaction") {
        state.sendCount += 1;
        if (state.dropSend === state.sendCount) {
          res.writeHead(503, { "content-type": "text/plain" }).end("dropped by the test");
          return;
        }
      }
      const handler = methods[body.method];
      let answer: Json;
      if (!handler) {
        answer = { jsonrpc: "2.0", id: body.id, error: { code: -32601, message: `not served: ${body.method}` } };
      } else {
        try {
          answer = { jsonrpc: "2.0", id: body.id, result: handler(body.params ?? []) };
        } catch (error) {
          answer = {
            jsonrpc: "2.0",
            id: body.id,
            error:
              error instanceof RpcFailure
                ? { code: error.code, message: error.message, data: error.data }
                : { code: -32002, message: String(error) },
          };
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const rpc = state as TestRpc;
  rpc.url = `http://127.0.0.1:${port}/`;
  rpc.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return rpc;
}
