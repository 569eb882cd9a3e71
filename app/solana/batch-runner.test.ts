import { generateKeyPairSync, sign } from "node:crypto";
import { type Address, getBase58Decoder, lamports } from "@solana/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRpc, type TestRpc } from "../../tests/setup/solana-rpc.ts";
import { createJob, createMemoryJobStore, type Job, type JobStore } from "../lib/solana/job.ts";
import { type ComputeBudget, WALLET_HEADROOM_SIZE } from "../lib/solana/pack.ts";
import { planTransfers } from "../lib/solana/transfer-plan.ts";
import { runJob } from "./batch-runner.ts";
import { rpcFor } from "./rpc.ts";
import type { Wallet, WalletAccount } from "./wallet.ts";

// The page's batch runner against a JSON-RPC endpoint executing on litesvm, with a wallet that
// signs in Node: interruptions at the awkward moments, then a resume by the job rules.

const b58 = getBase58Decoder();
const AMOUNT = 10_000_000n;

function keyAddress(): { address: Address; privateKey: ReturnType<typeof generateKeyPairSync>["privateKey"] } {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    address: b58.decode(publicKey.export({ type: "spki", format: "der" }).subarray(-32)) as Address,
    privateKey,
  };
}

/**
 * A wallet that signs; `rewrite` lets it change the message first, as wallets that set their
 * own priority fee do.
 */
function nodeWallet(rewrite: (message: Uint8Array) => void = () => {}) {
  const { address, privateKey } = keyAddress();
  let prompts = 0;
  const account = { address, publicKey: new Uint8Array(32), chains: ["solana:localnet"], features: [] };
  const wallet = {
    version: "1.0.0",
    name: "Node wallet",
    icon: "data:image/svg+xml;base64,",
    chains: ["solana:localnet"],
    accounts: [account],
    features: {
      "solana:signTransaction": {
        version: "1.0.0",
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          prompts += 1;
          return inputs.map(({ transaction }) => {
            const out = new Uint8Array(transaction);
            rewrite(out.subarray(65));
            out.set(sign(null, out.subarray(65), privateKey), 1);
            return { signedTransaction: out };
          });
        },
      },
    },
  };
  return {
    wallet: wallet as unknown as Wallet,
    account: account as unknown as WalletAccount,
    address,
    prompts: () => prompts,
  };
}

let rpc: TestRpc;
beforeAll(async () => {
  rpc = await startTestRpc();
});
afterAll(async () => {
  await rpc?.close();
});

function newJob(
  sender: Address,
  count: number,
  computeBudget: ComputeBudget | null = null,
): { job: Job; recipients: Address[] } {
  const recipients = Array.from({ length: count }, () => keyAddress().address);
  const rows = recipients.map((address, index) => ({ index, address, amount: AMOUNT }));
  const plan = planTransfers({ sender, asset: { kind: "sol" } }, rows, {
    maxBytes: WALLET_HEADROOM_SIZE,
    computeBudget: computeBudget ?? undefined,
  });
  const job = createJob({
    id: crypto.randomUUID(),
    createdAt: new Date().toISOString(),
    sender,
    asset: { kind: "sol" },
    rows: rows.map((r) => ({ ...r, line: r.index + 1 })),
    txs: plan.transactions.map((tx) => ({ ...tx, computeBudget })),
  });
  return { job, recipients };
}

function deps(w: ReturnType<typeof nodeWallet>, store: JobStore) {
  return {
    rpc: rpcFor(rpc.url),
    store,
    wallet: w.wallet,
    account: w.account,
    chain: "solana:localnet",
    onJob: () => {},
    onMessage: () => {},
    onLandedTwice: () => {
      throw new Error("landed twice");
    },
    pollMs: 5,
    maxIdleRounds: 20,
  };
}

describe("batch runner on litesvm", () => {
  it("signs again only after the blockhash expired, and pays every recipient once", async () => {
    const w = nodeWallet();
    rpc.svm.airdrop(w.address, lamports(5_000_000_000n));
    const store = createMemoryJobStore();
    const { job, recipients } = newJob(w.address, 30);
    expect(job.txs).toHaveLength(2);
    await store.put(job);

    rpc.dropSend = rpc.sendCount + 2;
    await expect(runJob(job, deps(w, store))).rejects.toThrow(/transaction 2/);
    const interrupted = (await store.get(job.id)) as Job;
    expect(interrupted.txs.map((t) => t.status)).toEqual(["sent", "signed"]);
    expect(w.prompts()).toBe(1);

    // Past lastValidBlockHeight + margin, with a new blockhash: the runner signs a new transaction.
    rpc.blockHeight += 400;
    rpc.svm.expireBlockhash();
    const done = await runJob(interrupted, deps(w, store));
    expect(done.txs.map((t) => t.status)).toEqual(["confirmed", "confirmed"]);
    expect(done.txs[1]?.expiredSignatures).toHaveLength(1);
    expect(w.prompts()).toBe(2);
    for (const r of recipients) expect(rpc.svm.getBalance(r)).toBe(AMOUNT);
  });

  it("does not send again a transaction that landed before the job recorded it", async () => {
    const w = nodeWallet();
    rpc.svm.airdrop(w.address, lamports(5_000_000_000n));
    const memory = createMemoryJobStore();
    // The page dies right after the first send: the save after it never happens.
    let sentSaves = 0;
    const crashing: JobStore = {
      ...memory,
      async put(job) {
        if (job.txs.some((t) => t.status === "sent")) {
          sentSaves += 1;
          throw new Error("tab closed");
        }
        await memory.put(job);
      },
    };
    const { job, recipients } = newJob(w.address, 5);
    await memory.put(job);
    await expect(runJob(job, deps(w, crashing))).rejects.toThrow("tab closed");
    expect(sentSaves).toBe(1);
    const saved = (await memory.get(job.id)) as Job;
    expect(saved.txs[0]?.status).toBe("signed");

    const sendsBefore = rpc.sendCount;
    const done = await runJob(saved, deps(w, memory));
    expect(done.txs[0]?.status).toBe("confirmed");
    expect(rpc.sendCount).toBe(sendsBefore);
    expect(w.prompts()).toBe(1);
    for (const r of recipients) expect(rpc.svm.getBalance(r)).toBe(AMOUNT);
  });

  it("signs with the job's compute budget, and sends what a wallet that changed its price signed", async () => {
    const price = 12_345n;
    const walletPrice = 54_321n;
    const le = (n: bigint) => {
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setBigUint64(0, n, true);
      return bytes;
    };
    // The wallet finds SetComputeUnitPrice (3, then the price) and puts in its own price.
    const w = nodeWallet((message) => {
      const wanted = [3, ...le(price)];
      for (let i = 0; i + wanted.length <= message.length; i++) {
        if (wanted.every((b, j) => message[i + j] === b)) {
          message.set(le(walletPrice), i + 1);
          return;
        }
      }
      throw new Error("no compute-unit price in the message");
    });
    rpc.svm.airdrop(w.address, lamports(5_000_000_000n));
    const store = createMemoryJobStore();
    const { job, recipients } = newJob(w.address, 5, { unitLimit: 40_000, unitPrice: price });
    await store.put(job);
    const sentBefore = rpc.sentBudgets.length;
    const done = await runJob(job, deps(w, store));
    expect(done.txs.map((t) => t.status)).toEqual(["confirmed"]);
    expect(rpc.sentBudgets.slice(sentBefore)).toEqual([{ unitLimit: 40_000, unitPrice: walletPrice }]);
    for (const r of recipients) expect(rpc.svm.getBalance(r)).toBe(AMOUNT);
  });
});
