// The builders against the real System, SPL Token, Token-2022 and associated-token-account
// programs, run in-process by litesvm: what lands, and the exact lamports and token balances.

import {
  type Address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  signTransactionMessageWithSigners,
  type Transaction,
} from "@solana/kit";
import { getCreateAccountInstruction } from "@solana-program/system";
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintToInstruction,
  getTokenDecoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { beforeAll, describe, expect, it } from "vitest";
import { planCloseAccounts, selectClosable, type TokenAccountInfo } from "./close-accounts.ts";
import {
  applyDecisions,
  createJob,
  nextAction,
  recordSent,
  recordSigned,
  type SignatureStatus,
  signaturesToCheck,
} from "./job.ts";
import { compileUnsignedTransaction, serializedSize, TRANSACTION_SIZE_LIMIT } from "./pack.ts";
import {
  associatedTokenAddress,
  LAMPORTS_PER_SIGNATURE,
  planTransfers,
  recipientTokenAccounts,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferRow,
  transferCost,
  transferInstructions,
} from "./transfer-plan.ts";

const SOL = 1_000_000_000n;

function svmWithPayer(): LiteSVM {
  return new LiteSVM();
}

/** Setup transactions (mints, accounts), signed by every signer inside the instructions. */
async function setup(svm: LiteSVM, payer: KeyPairSigner, instructions: Instruction[]): Promise<void> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
  if (result instanceof FailedTransactionMetadata) throw new Error(`setup failed: ${result.toString()}`);
}

/** A transaction built by our modules, signed like a wallet would, then sent. */
async function signed(svm: LiteSVM, payer: KeyPairSigner, instructions: Instruction[]): Promise<Transaction> {
  const tx = compileUnsignedTransaction(
    instructions,
    { feePayer: payer.address },
    { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1000n },
  );
  expect(serializedSize(tx)).toBeLessThanOrEqual(TRANSACTION_SIZE_LIMIT);
  return signTransaction([payer.keyPair], tx);
}

function send(svm: LiteSVM, tx: Transaction): void {
  const result = svm.sendTransaction(tx);
  if (result instanceof FailedTransactionMetadata) throw new Error(`transaction failed: ${result.toString()}`);
}

function balance(svm: LiteSVM, address: Address): bigint {
  return svm.getBalance(address) ?? 0n;
}

function tokenAccount(svm: LiteSVM, address: Address) {
  const account = svm.getAccount(address);
  if (!account.exists) return null;
  return {
    ...getTokenDecoder().decode(account.data.slice(0, 165)),
    lamports: account.lamports,
    size: account.data.length,
  };
}

async function createMint(svm: LiteSVM, payer: KeyPairSigner, program: Address, decimals: number): Promise<Address> {
  const mint = await generateKeyPairSigner();
  await setup(svm, payer, [
    getCreateAccountInstruction({
      payer,
      newAccount: mint,
      lamports: svm.minimumBalanceForRentExemption(82n),
      space: 82,
      programAddress: program,
    }),
    getInitializeMint2Instruction(
      { mint: mint.address, decimals, mintAuthority: payer.address },
      { programAddress: program },
    ),
  ]);
  return mint.address;
}

async function createAtaWithBalance(
  svm: LiteSVM,
  payer: KeyPairSigner,
  owner: Address,
  mint: Address,
  program: Address,
  amount: bigint,
): Promise<Address> {
  const ata = await associatedTokenAddress(owner, mint, program);
  const instructions: Instruction[] = [
    getCreateAssociatedTokenIdempotentInstruction({ payer, ata, owner, mint, tokenProgram: program }),
  ];
  if (amount > 0n) {
    instructions.push(
      getMintToInstruction({ mint, token: ata, mintAuthority: payer, amount }, { programAddress: program }),
    );
  }
  await setup(svm, payer, instructions);
  return ata;
}

let recipients: Address[];
beforeAll(async () => {
  recipients = await Promise.all(Array.from({ length: 50 }, async () => (await generateKeyPairSigner()).address));
});

describe("batch SOL transfer", () => {
  it("pays 50 new recipients exactly, the sender paying amounts plus one fee per transaction", async () => {
    const svm = svmWithPayer();
    const sender = await generateKeyPairSigner();
    svm.airdrop(sender.address, lamports(100n * SOL));
    const rows: TransferRow[] = recipients.map((address, index) => ({
      index,
      address,
      amount: 900_000n + BigInt(index) * 1_001n,
    }));
    const plan = planTransfers({ sender: sender.address, asset: { kind: "sol" } }, rows);
    expect(plan.transactions.length).toBe(3);
    const before = balance(svm, sender.address);
    for (const planned of plan.transactions) send(svm, await signed(svm, sender, planned.instructions));

    for (const row of rows) expect(balance(svm, row.address)).toBe(row.amount);
    const cost = transferCost(plan, rows, { kind: "sol" }, { accountRent: 0n });
    expect(cost.networkFees).toBe(3n * LAMPORTS_PER_SIGNATURE);
    expect(before - balance(svm, sender.address)).toBe(cost.lamportsNeeded);
  });
});

describe.each([
  ["SPL Token", TOKEN_PROGRAM_ADDRESS as Address],
  ["Token-2022", TOKEN_2022_PROGRAM_ADDRESS],
])("batch %s transfer", (_name, program) => {
  it("creates missing recipient accounts once, pays exact amounts, and costs exactly fees plus rent", async () => {
    const svm = svmWithPayer();
    const sender = await generateKeyPairSigner();
    svm.airdrop(sender.address, lamports(10n * SOL));
    const mint = await createMint(svm, sender, program, 6);
    const source = await createAtaWithBalance(svm, sender, sender.address, mint, program, 1_000_000_000n);
    // Recipients 0-2 already hold an account; recipient 3 appears twice (a confirmed duplicate).
    const owners = recipients.slice(0, 24);
    for (const owner of owners.slice(0, 3)) await createAtaWithBalance(svm, sender, owner, mint, program, 0n);
    const rows: TransferRow[] = [...owners, owners[3] as Address].map((address, index) => ({
      index,
      address,
      amount: 1_000n + BigInt(index),
    }));
    const tokenAccounts = await recipientTokenAccounts(
      rows.map((r) => r.address),
      mint,
      program,
    );
    const existingAccounts = new Set([...tokenAccounts.values()].filter((ata) => svm.getAccount(ata).exists));
    expect(existingAccounts.size).toBe(3);
    const asset = { kind: "token" as const, mint, decimals: 6, tokenProgram: program, source };
    const plan = planTransfers({ sender: sender.address, asset, tokenAccounts, existingAccounts }, rows);
    expect(plan.newAccounts.length).toBe(21);
    expect(plan.transactions.flatMap((t) => t.rowIdxs).sort((a, b) => a - b)).toEqual(rows.map((r) => r.index));

    const lamportsBefore = balance(svm, sender.address);
    for (const planned of plan.transactions) send(svm, await signed(svm, sender, planned.instructions));

    const expected = new Map<Address, bigint>();
    for (const row of rows) expected.set(row.address, (expected.get(row.address) ?? 0n) + row.amount);
    for (const [owner, amount] of expected) {
      const account = tokenAccount(svm, tokenAccounts.get(owner) as Address);
      expect(account?.amount).toBe(amount);
      expect(account?.owner).toBe(owner);
    }
    const total = rows.reduce((sum, r) => sum + r.amount, 0n);
    expect(tokenAccount(svm, source)?.amount).toBe(1_000_000_000n - total);

    const newAccount = tokenAccount(svm, tokenAccounts.get(owners[5] as Address) as Address);
    const accountRent = svm.minimumBalanceForRentExemption(BigInt(newAccount?.size ?? 0));
    const cost = transferCost(plan, rows, asset, { accountRent });
    expect(lamportsBefore - balance(svm, sender.address)).toBe(cost.lamportsNeeded);
    expect(cost.newAccountRent).toBe(21n * accountRent);
  });
});

function accountInfo(svm: LiteSVM, address: Address, program: Address): TokenAccountInfo {
  const account = tokenAccount(svm, address);
  if (!account) throw new Error("missing account");
  return {
    address,
    program,
    mint: account.mint,
    owner: account.owner,
    amount: account.amount,
    lamports: account.lamports,
    isNative: account.isNative.__option === "Some",
    state: account.state === 2 ? "frozen" : account.state === 1 ? "initialized" : "uninitialized",
    closeAuthority: account.closeAuthority.__option === "Some" ? account.closeAuthority.value : null,
    withheldAmount: 0n,
    extensions: [],
  };
}

describe("closing empty token accounts", () => {
  it("returns exactly their rent to the owner and never closes an account with a balance", async () => {
    const svm = svmWithPayer();
    const owner = await generateKeyPairSigner();
    svm.airdrop(owner.address, lamports(10n * SOL));
    const accounts: TokenAccountInfo[] = [];
    for (const [program, amount] of [
      [TOKEN_PROGRAM_ADDRESS, 0n],
      [TOKEN_PROGRAM_ADDRESS, 0n],
      [TOKEN_2022_PROGRAM_ADDRESS, 0n],
      [TOKEN_PROGRAM_ADDRESS, 5n],
    ] as const) {
      const mint = await createMint(svm, owner, program, 0);
      const ata = await createAtaWithBalance(svm, owner, owner.address, mint, program, amount);
      accounts.push(accountInfo(svm, ata, program));
    }
    const selection = selectClosable(accounts, owner.address);
    expect(selection.closable.map((c) => c.account.address)).toEqual(accounts.slice(0, 3).map((a) => a.address));
    expect(selection.kept).toEqual([{ account: accounts[3], reason: "close.hasBalance" }]);
    expect(() => planCloseAccounts(accounts, owner.address)).toThrow(/close.hasBalance/);

    const plan = planCloseAccounts(
      selection.closable.map((c) => c.account),
      owner.address,
    );
    expect(plan).toHaveLength(1);
    const before = balance(svm, owner.address);
    for (const tx of plan) send(svm, await signed(svm, owner, tx.instructions));
    expect(balance(svm, owner.address) - before).toBe(selection.totalRent - LAMPORTS_PER_SIGNATURE);
    expect(selection.totalRent).toBe(accounts.slice(0, 3).reduce((sum, a) => sum + a.lamports, 0n));
    for (const c of selection.closable) expect(svm.getAccount(c.account.address).exists).toBe(false);

    // A close crafted by hand for the account with a balance is refused by the token program.
    const funded = accounts[3] as TokenAccountInfo;
    const crafted = getCloseAccountInstruction({
      account: funded.address,
      destination: owner.address,
      owner: owner.address,
    });
    expect(svm.sendTransaction(await signed(svm, owner, [crafted]))).toBeInstanceOf(FailedTransactionMetadata);
    expect(tokenAccount(svm, funded.address)?.amount).toBe(5n);
  });
});

/** What getSignatureStatuses (searchTransactionHistory) would answer, from litesvm's history. */
function statusesFrom(svm: LiteSVM, signatures: string[]): Map<string, SignatureStatus | null> {
  const out = new Map<string, SignatureStatus | null>();
  for (const signature of signatures) {
    const known = svm.getTransaction(signature as Parameters<LiteSVM["getTransaction"]>[0]);
    out.set(
      signature,
      known
        ? { err: known instanceof FailedTransactionMetadata ? known.err() : null, confirmationStatus: "finalized" }
        : null,
    );
  }
  return out;
}

describe("resuming a job", () => {
  it("after a timeout and a crash, pays every recipient exactly once", async () => {
    const svm = svmWithPayer();
    const sender = await generateKeyPairSigner();
    svm.airdrop(sender.address, lamports(10n * SOL));
    const rows: TransferRow[] = recipients
      .slice(0, 30)
      .map((address, index) => ({ index, address, amount: SOL / 100n }));
    const ctx = { sender: sender.address, asset: { kind: "sol" as const } };
    const plan = planTransfers(ctx, rows);
    expect(plan.transactions).toHaveLength(2);
    let job = createJob({
      id: "job-1",
      createdAt: "2026-11-23T00:00:00.000Z",
      sender: sender.address,
      asset: { kind: "sol" },
      rows: rows.map((r) => ({ index: r.index, line: r.index + 1, address: r.address, amount: r.amount })),
      txs: plan.transactions,
    });
    const lastValidBlockHeight = 1000n;
    // Transaction 0: signed, saved, broadcast, then the send "times out" before any answer.
    const first = await signed(svm, sender, plan.transactions[0]?.instructions ?? []);
    job = recordSigned(job, 0, { signedTx: getBase64EncodedWireTransaction(first), lastValidBlockHeight });
    send(svm, first);
    job = recordSent(job, 0);
    // Transaction 1: signed and saved, then the page crashes before sending it.
    const second = await signed(svm, sender, plan.transactions[1]?.instructions ?? []);
    job = recordSigned(job, 1, { signedTx: getBase64EncodedWireTransaction(second), lastValidBlockHeight });
    // Time passes: the blockhash both were signed with expires.
    svm.expireBlockhash();
    expect(svm.sendTransaction(second)).toBeInstanceOf(FailedTransactionMetadata);

    // Resume long after expiry: the network's answer decides, not the clock.
    const height = lastValidBlockHeight + 10_000n;
    const decisions = nextAction(job, statusesFrom(svm, signaturesToCheck(job)), height);
    expect(decisions.map((d) => d.action)).toEqual(["confirmed", "resign"]);
    expect(decisions[0]?.signature).toBe(job.txs[0]?.signature);
    expect(() =>
      recordSigned(
        job,
        0,
        { signedTx: getBase64EncodedWireTransaction(first), lastValidBlockHeight: 2000n },
        decisions[0],
      ),
    ).toThrow();
    job = applyDecisions(job, decisions);

    // Only transaction 1 is built again, from its rows, with a fresh blockhash.
    const tx1 = job.txs[1];
    const rebuilt = transferInstructions(
      ctx,
      (tx1?.rowIdxs ?? []).map((i) => rows[i] as TransferRow),
      tx1?.creates,
    );
    const again = await signed(svm, sender, rebuilt);
    job = recordSigned(
      job,
      1,
      { signedTx: getBase64EncodedWireTransaction(again), lastValidBlockHeight: height + 150n },
      decisions[1],
    );
    send(svm, again);
    job = recordSent(job, 1);
    job = applyDecisions(job, nextAction(job, statusesFrom(svm, signaturesToCheck(job)), height));
    expect(job.txs.map((t) => t.status)).toEqual(["confirmed", "confirmed"]);
    expect(job.txs[1]?.expiredSignatures).toHaveLength(1);

    // Sending the first bytes again (the "send" path) cannot pay twice either.
    expect(svm.sendTransaction(first)).toBeInstanceOf(FailedTransactionMetadata);
    for (const row of rows) expect(balance(svm, row.address)).toBe(row.amount);
  });
});
