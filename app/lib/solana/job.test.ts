import {
  type Blockhash,
  createNoopSigner,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  signTransaction,
} from "@solana/kit";
import { getTransferSolInstruction } from "@solana-program/system";
import { beforeAll, describe, expect, it } from "vitest";
import {
  applyDecisions,
  createJob,
  createMemoryJobStore,
  isJobFinished,
  type Job,
  jobResultsCsv,
  nextAction,
  recordSent,
  recordSigned,
  rowStatuses,
  type SignatureStatus,
  signatureOfWireTransaction,
  signaturesToCheck,
} from "./job.ts";
import { compileUnsignedTransaction } from "./pack.ts";

let payer: KeyPairSigner;
let recipient: KeyPairSigner;
beforeAll(async () => {
  [payer, recipient] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
});

/** A signed transfer; a different `nonce` gives different bytes and signature (a new signing). */
async function signedTx(nonce: number, sign = true): Promise<string> {
  const ix = getTransferSolInstruction({
    source: createNoopSigner(payer.address),
    destination: recipient.address,
    amount: 1_000_000n + BigInt(nonce),
  });
  const tx = compileUnsignedTransaction(
    [ix],
    { feePayer: payer.address },
    { blockhash: "11111111111111111111111111111111" as Blockhash, lastValidBlockHeight: 0n },
  );
  return getBase64EncodedWireTransaction(sign ? await signTransaction([payer.keyPair], tx) : tx);
}

const LVBH = 5_000n;
const confirmed: SignatureStatus = { err: null, confirmationStatus: "confirmed" };
const processed: SignatureStatus = { err: null, confirmationStatus: "processed" };

function newJob(): Job {
  return createJob({
    id: "j1",
    createdAt: "2026-11-23T00:00:00.000Z",
    sender: "sender",
    asset: { kind: "sol" },
    rows: [
      { index: 0, line: 2, address: "A", amount: 1_500_000_000n },
      { index: 1, line: 3, address: "B", amount: 1n },
      { index: 2, line: 4, address: "C", amount: 2n },
    ],
    txs: [{ rowIdxs: [0, 1] }, { rowIdxs: [2] }],
  });
}

async function sentJob(): Promise<Job> {
  const job = recordSigned(newJob(), 0, { signedTx: await signedTx(1), lastValidBlockHeight: LVBH });
  return recordSent(job, 0);
}

function only(job: Job, statuses: Map<string, SignatureStatus | null>, height: bigint | null) {
  return nextAction(job, statuses, height)[0];
}

describe("nextAction", () => {
  it("signs every transaction of a new job", () => {
    expect(nextAction(newJob(), new Map(), 1n).map((d) => d.action)).toEqual(["sign", "sign"]);
  });

  it("decides from the network's status and the block height", async () => {
    const job = await sentJob();
    const sig = job.txs[0]?.signature as string;
    expect(signaturesToCheck(job)).toEqual([sig]);
    expect(only(job, new Map([[sig, null]]), LVBH)?.action).toBe("send");
    expect(only(job, new Map([[sig, null]]), LVBH + 1n)?.action).toBe("wait");
    expect(only(job, new Map([[sig, null]]), LVBH + 151n)?.action).toBe("resign");
    expect(only(job, new Map([[sig, processed]]), LVBH + 10_000n)?.action).toBe("wait");
    expect(only(job, new Map([[sig, confirmed]]), LVBH + 10_000n)).toEqual({
      txIndex: 0,
      action: "confirmed",
      signature: sig,
    });
    const failed = only(
      job,
      new Map([[sig, { err: { InstructionError: [0, { Custom: 1n }] }, confirmationStatus: "finalized" }]]),
      1n,
    );
    expect(failed).toEqual({
      txIndex: 0,
      action: "failed",
      signature: sig,
      error: '{"InstructionError":[0,{"Custom":"1"}]}',
    });
  });

  it("waits, never re-signs, when a status was not read or the height is unknown", async () => {
    const job = await sentJob();
    const sig = job.txs[0]?.signature as string;
    expect(only(job, new Map(), LVBH + 10_000n)?.action).toBe("wait");
    expect(only(job, new Map([[sig, null]]), null)?.action).toBe("wait");
  });

  it("sends the saved bytes again when the page died between saving and sending", async () => {
    const job = recordSigned(newJob(), 0, { signedTx: await signedTx(1), lastValidBlockHeight: LVBH });
    expect(job.txs[0]?.status).toBe("signed");
    expect(only(job, new Map([[job.txs[0]?.signature as string, null]]), LVBH - 10n)?.action).toBe("send");
  });

  it("timed out after broadcast, signature later found confirmed: never re-signed", async () => {
    let job = await sentJob();
    const sig = job.txs[0]?.signature as string;
    // The send timed out; the first status read fails (no entry) long after expiry.
    expect(only(job, new Map(), LVBH + 10_000n)?.action).toBe("wait");
    // Re-signing without a "resign" decision is refused.
    await expect(
      signedTx(2).then((tx) => recordSigned(job, 0, { signedTx: tx, lastValidBlockHeight: LVBH * 2n })),
    ).rejects.toThrow(/only an expired one/);
    const wait = nextAction(job, new Map(), LVBH + 10_000n)[0];
    await expect(
      signedTx(2).then((tx) => recordSigned(job, 0, { signedTx: tx, lastValidBlockHeight: LVBH * 2n }, wait)),
    ).rejects.toThrow(/only an expired one/);
    // The next read finds it confirmed: the job records it, and nothing is ever signed again.
    const decisions = nextAction(job, new Map([[sig, confirmed]]), LVBH + 10_000n);
    expect(decisions[0]).toMatchObject({ action: "confirmed", signature: sig });
    job = applyDecisions(job, decisions);
    expect(job.txs[0]?.status).toBe("confirmed");
    expect(nextAction(job, new Map(), LVBH + 20_000n)[0]?.action).toBe("done");
    expect(signaturesToCheck(job)).toEqual([]);
    await expect(
      signedTx(3).then((tx) => recordSigned(job, 0, { signedTx: tx, lastValidBlockHeight: 1n })),
    ).rejects.toThrow();
  });

  it("re-signs an expired unknown transaction and keeps checking the old signature", async () => {
    let job = await sentJob();
    const old = job.txs[0]?.signature as string;
    const decision = nextAction(job, new Map([[old, null]]), LVBH + 1_000n)[0];
    expect(decision?.action).toBe("resign");
    expect(decision?.signature).toBe(old);
    job = recordSigned(job, 0, { signedTx: await signedTx(2), lastValidBlockHeight: LVBH * 2n }, decision);
    const fresh = job.txs[0]?.signature as string;
    // The same decision cannot sign a third time: it was about the old signature.
    await expect(
      signedTx(3).then((tx) => recordSigned(job, 0, { signedTx: tx, lastValidBlockHeight: LVBH * 3n }, decision)),
    ).rejects.toThrow(/only an expired one/);
    expect(fresh).not.toBe(old);
    expect(job.txs[0]?.expiredSignatures).toEqual([old]);
    expect(signaturesToCheck(job)).toEqual([old, fresh]);
    // An old signing that turns up confirmed after all wins; both landing is reported.
    expect(
      only(
        job,
        new Map([
          [old, confirmed],
          [fresh, null],
        ]),
        LVBH * 2n,
      ),
    ).toMatchObject({ action: "confirmed", signature: old });
    expect(
      only(
        job,
        new Map([
          [old, confirmed],
          [fresh, confirmed],
        ]),
        LVBH * 2n,
      ),
    ).toMatchObject({ landedTwice: true });
    // Both unknown and the new blockhash still valid: send the new bytes.
    expect(
      only(
        job,
        new Map([
          [old, null],
          [fresh, null],
        ]),
        LVBH * 2n,
      )?.action,
    ).toBe("send");
    // The old status not read: wait.
    expect(only(job, new Map([[fresh, null]]), LVBH * 2n)?.action).toBe("wait");
  });
});

describe("job records", () => {
  it("takes the signature from the signed bytes and refuses unsigned ones", async () => {
    const tx = await signedTx(1);
    expect(signatureOfWireTransaction(tx)).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    await expect(signedTx(1, false).then(signatureOfWireTransaction)).rejects.toThrow(/not signed/);
  });

  it("gives per-row statuses, a results file and survives the store with bigints intact", async () => {
    let job = await sentJob();
    expect(rowStatuses(job).map((r) => r.status)).toEqual(["sent", "sent", "pending"]);
    job = applyDecisions(job, [{ txIndex: 0, action: "confirmed", signature: job.txs[0]?.signature as string }]);
    job = applyDecisions(job, [{ txIndex: 1, action: "failed", error: "x" }]);
    expect(isJobFinished(job)).toBe(true);
    const sig = job.txs[0]?.signature;
    expect(jobResultsCsv(job)).toBe(
      `line,address,amount,status,signature\r\n2,A,1.5,confirmed,${sig}\r\n3,B,0.000000001,confirmed,${sig}\r\n4,C,0.000000002,failed,\r\n`,
    );
    const store = createMemoryJobStore();
    await store.put(job);
    expect(await store.get("j1")).toEqual(job);
    expect((await store.list()).map((j) => j.id)).toEqual(["j1"]);
    await store.delete("j1");
    expect(await store.get("j1")).toBeNull();
  });
});
