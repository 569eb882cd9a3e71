import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Address,
  getBase58Decoder,
  getBase64Decoder,
  getBase64Encoder,
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
  sendCount: number;
  /** The block height the RPC reports (raise it to expire blockhashes). */
  blockHeight: number;
  /** Signatures that landed, by base58 signature. */
  landed: Map<string, { slot: number; err: unknown }>;
  addTokenAccount(address: Address, input: { mint: Address; owner: Address; amount: bigint }): void;
  addMint(address: Address, input: { decimals: number; supply: bigint }): void;
  close(): Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

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
    sendCount: 0,
    blockHeight: BLOCK_HEIGHT,
    landed: new Map(),
    addTokenAccount(address, { mint, owner, amount }) {
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
        programAddress: TOKEN_PROGRAM_ADDRESS,
        executable: false,
        data,
        space: 165n,
      });
      state.tokenAccounts.add(address);
    },
    addMint(address, { decimals, supply }) {
      const data = new Uint8Array(
        getMintEncoder().encode({ mintAuthority: null, supply, decimals, isInitialized: true, freezeAuthority: null }),
      );
      svm.setAccount({
        address,
        lamports: lamports(svm.minimumBalanceForRentExemption(82n)),
        programAddress: TOKEN_PROGRAM_ADDRESS,
        executable: false,
        data,
        space: 82n,
      });
    },
  };

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
    if (encoding === "jsonParsed" && account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === 165) {
      const token = getTokenDecoder().decode(account.data);
      return {
        ...base,
        data: {
          program: "spl-token",
          space: 165,
          parsed: {
            type: "account",
            info: {
              mint: token.mint,
              owner: token.owner,
              isNative: false,
              state: token.state === AccountState.Frozen ? "frozen" : "initialized",
              tokenAmount: {
                amount: token.amount.toString(),
                decimals: 0,
                uiAmount: Number(token.amount),
                uiAmountString: token.amount.toString(),
              },
            },
          },
        },
      };
    }
    if (encoding === "jsonParsed" && account.programAddress === TOKEN_PROGRAM_ADDRESS && account.data.length === 82) {
      const mint = getMintDecoder().decode(account.data);
      return {
        ...base,
        data: {
          program: "spl-token",
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
    getMultipleAccounts: ([addresses, config]) => ({
      context: ctx,
      value: (addresses as string[]).map((a) =>
        accountJson(a as Address, (config as { encoding?: string } | null)?.encoding ?? "base64"),
      ),
    }),
    getTokenAccountsByOwner: ([owner, filter]) => {
      const programId = (filter as { programId?: string }).programId;
      const value =
        programId === TOKEN_PROGRAM_ADDRESS
          ? [...state.tokenAccounts]
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
          return { context: ctx, value: { err: result.toString(), logs: result.meta().logs(), unitsConsumed: 0 } };
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
      const result = svm.sendTransaction(decodeTx(tx as string));
      if (result instanceof FailedTransactionMetadata) throw new Error(result.toString());
      const signature = b58.decode(result.signature());
      state.landed.set(signature, { slot: SLOT, err: null });
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
          answer = { jsonrpc: "2.0", id: body.id, error: { code: -32002, message: String(error) } };
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
