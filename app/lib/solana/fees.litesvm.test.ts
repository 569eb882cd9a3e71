// What a batch with priority fees really costs, against the System program run by litesvm:
// the fee the page shows before signing is what the sender pays.
import {
  type Address,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  lamports,
  signTransaction,
} from "@solana/kit";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import { describe, expect, it } from "vitest";
import { estimateFees, priorityFeeLamports, SIMULATION_BUDGET, unitLimitFor } from "./fees.ts";
import { compileUnsignedTransaction } from "./pack.ts";
import { planTransfers, type TransferRow, transferCost } from "./transfer-plan.ts";

const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";

describe("a SOL batch with compute limits from its simulation and a priority fee", () => {
  it("pays exactly the amounts, the network fees and the priority fees shown", async () => {
    const svm = new LiteSVM();
    const sender = await generateKeyPairSigner();
    svm.airdrop(sender.address, lamports(10_000_000_000n));
    const recipients = await Promise.all(
      Array.from({ length: 30 }, async () => (await generateKeyPairSigner()).address),
    );
    const rows: TransferRow[] = recipients.map((address, index) => ({
      index,
      address,
      amount: 1_000_000n + BigInt(index),
    }));
    const plan = planTransfers({ sender: sender.address, asset: { kind: "sol" } }, rows, {
      computeBudget: SIMULATION_BUDGET,
    });
    expect(plan.transactions.length).toBeGreaterThan(1);
    const lifetime = { blockhash: svm.latestBlockhash(), lastValidBlockHeight: 1000n };
    const unitPrice = estimateFees([]).turbo;

    // Limits from each transaction's simulation at the maximum, as the page does.
    const budgets = [];
    for (const planned of plan.transactions) {
      const probe = compileUnsignedTransaction(
        planned.instructions,
        { feePayer: sender.address, computeBudget: SIMULATION_BUDGET },
        lifetime,
      );
      const simulated = svm.simulateTransaction(await signTransaction([sender.keyPair], probe));
      if (simulated instanceof FailedTransactionMetadata) throw new Error(simulated.toString());
      budgets.push({ unitLimit: unitLimitFor(Number(simulated.meta().computeUnitsConsumed())), unitPrice });
    }
    const cost = transferCost(plan, rows, { kind: "sol" }, { accountRent: 0n, budgets });
    expect(cost.priorityFees).toBe(budgets.reduce((sum, b) => sum + priorityFeeLamports(b), 0n));
    expect(cost.priorityFees).toBeGreaterThan(0n);

    const before = svm.getBalance(sender.address) ?? 0n;
    for (const [i, planned] of plan.transactions.entries()) {
      const tx = compileUnsignedTransaction(
        planned.instructions,
        { feePayer: sender.address, computeBudget: budgets[i] },
        lifetime,
      );
      const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
      if (!("instructions" in message)) throw new Error("a legacy or v0 message was expected");
      const programs = message.instructions.map((ix) => message.staticAccounts[ix.programAddressIndex]);
      expect(programs.filter((p) => p === COMPUTE_BUDGET_PROGRAM)).toHaveLength(2);
      const result = svm.sendTransaction(await signTransaction([sender.keyPair], tx));
      if (result instanceof FailedTransactionMetadata) throw new Error(result.toString());
      // The limit held: what ran fits in what was asked for.
      expect(Number(result.computeUnitsConsumed())).toBeLessThanOrEqual(budgets[i]?.unitLimit ?? 0);
    }
    for (const row of rows) expect(svm.getBalance(row.address as Address)).toBe(row.amount);
    expect(before - (svm.getBalance(sender.address) ?? 0n)).toBe(cost.lamportsNeeded);
  });
});
