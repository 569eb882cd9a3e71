import { type Address, getAddressDecoder, type Instruction } from "@solana/kit";
import { TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { U64_MAX } from "./amount.ts";
import { planCloseAccounts, type TokenAccountInfo } from "./close-accounts.ts";
import { measureInstructions, PackError, packItems, TRANSACTION_SIZE_LIMIT, WALLET_HEADROOM_SIZE } from "./pack.ts";
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  planTransfers,
  recipientTokenAccounts,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferAsset,
  type TransferContext,
  type TransferRow,
  transferInstructions,
} from "./transfer-plan.ts";

const SYSTEM = "11111111111111111111111111111111";

function randomAddress(seed: number): Address {
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = (seed * 131 + i * 17 + ((seed >> 3) ^ i)) & 0xff;
  bytes[0] = seed & 0xff;
  bytes[1] = (seed >> 8) & 0xff;
  return getAddressDecoder().decode(bytes);
}

const pool = Array.from({ length: 120 }, (_, i) => randomAddress(i + 1));
const sender = randomAddress(1000);
const mint = randomAddress(1001);
const source = randomAddress(1002);
const tokenAccounts = new Map<Address, Map<Address, Address>>();

beforeAll(async () => {
  for (const program of [TOKEN_PROGRAM_ADDRESS as Address, TOKEN_2022_PROGRAM_ADDRESS]) {
    tokenAccounts.set(program, await recipientTokenAccounts(pool, mint, program));
  }
});

/** The rows an instruction list pays, read back from the instructions themselves. */
function paidDestinations(instructions: readonly Instruction[]): string[] {
  return instructions
    .filter(
      (ix) =>
        ix.programAddress === SYSTEM ||
        ix.programAddress === TOKEN_PROGRAM_ADDRESS ||
        ix.programAddress === TOKEN_2022_PROGRAM_ADDRESS,
    )
    .map((ix) => (ix.programAddress === SYSTEM ? ix.accounts?.[1]?.address : ix.accounts?.[2]?.address) ?? "");
}

/** What goes on the wire: program, accounts with roles, data (signer objects left out). */
function shape(ix: Instruction) {
  return { program: ix.programAddress, accounts: ix.accounts?.map((a) => [a.address, a.role]), data: ix.data };
}

const scenario = fc.record({
  token: fc.constantFrom(null, TOKEN_PROGRAM_ADDRESS as Address, TOKEN_2022_PROGRAM_ADDRESS),
  rows: fc.array(fc.record({ who: fc.nat({ max: pool.length - 1 }), amount: fc.bigInt({ min: 1n, max: U64_MAX }) }), {
    minLength: 1,
    maxLength: 70,
  }),
  existing: fc.func(fc.boolean()),
  maxBytes: fc.constantFrom(TRANSACTION_SIZE_LIMIT, WALLET_HEADROOM_SIZE, 700),
  version: fc.constantFrom(0 as const, "legacy" as const),
  computeBudget: fc.option(
    fc.record({
      unitLimit: fc.integer({ min: 1, max: 1_400_000 }),
      unitPrice: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    }),
  ),
});

describe("planTransfers", () => {
  it("never exceeds the size limit and carries every row exactly once, in a transaction that pays it", () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const rows: TransferRow[] = s.rows.map((r, index) => ({
          index,
          address: pool[r.who] as Address,
          amount: r.amount,
        }));
        const atas = s.token ? (tokenAccounts.get(s.token) as Map<Address, Address>) : undefined;
        const asset: TransferAsset = s.token
          ? { kind: "token", mint, decimals: 6, tokenProgram: s.token, source }
          : { kind: "sol" };
        const ctx: TransferContext = {
          sender,
          asset,
          tokenAccounts: atas,
          existingAccounts: new Set([...(atas?.values() ?? [])].filter((ata) => s.existing(ata))),
        };
        const options = { maxBytes: s.maxBytes, version: s.version, computeBudget: s.computeBudget };
        const plan = planTransfers(ctx, rows, options);

        const carried = plan.transactions.flatMap((t) => t.rowIdxs).sort((x, y) => x - y);
        expect(carried).toEqual(rows.map((r) => r.index));
        for (const tx of plan.transactions) {
          const size = measureInstructions(tx.instructions, { feePayer: sender, ...options });
          expect(size).toBe(tx.size);
          expect(size).toBeLessThanOrEqual(s.maxBytes);
          // The instructions pay exactly the rows the transaction claims, in order.
          const expected = tx.rowIdxs.map((i) => {
            const owner = rows[i]?.address as Address;
            return atas ? atas.get(owner) : owner;
          });
          expect(paidDestinations(tx.instructions)).toEqual(expected);
          // Rebuilding the same rows (the re-sign path) gives the same instructions.
          const again = transferInstructions(
            ctx,
            tx.rowIdxs.map((i) => rows[i] as TransferRow),
          );
          expect(again.map(shape)).toEqual(tx.instructions.map(shape));
          // Every account creation comes before the first transfer into that account.
          tx.instructions.forEach((ix, at) => {
            if (ix.programAddress !== ASSOCIATED_TOKEN_PROGRAM_ADDRESS) return;
            const ata = ix.accounts?.[1]?.address;
            const firstUse = tx.instructions.findIndex((other) => other !== ix && other.accounts?.[2]?.address === ata);
            expect(firstUse).toBeGreaterThan(at);
          });
        }
        // Greedy packing is tight: no two neighbouring transactions could have been one.
        for (let i = 1; i < plan.transactions.length; i++) {
          const prev = plan.transactions[i - 1];
          const next = plan.transactions[i];
          if (!prev || !next) continue;
          const merged = transferInstructions(
            ctx,
            [...prev.rowIdxs, next.rowIdxs[0] as number].map((j) => rows[j] as TransferRow),
          );
          expect(measureInstructions(merged, { feePayer: sender, ...options })).toBeGreaterThan(s.maxBytes);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("fits 21 SOL transfers to new addresses in a 1232-byte transaction, and 10 token rows that create accounts", () => {
    const solRows = pool.slice(0, 50).map((address, index) => ({ index, address, amount: 1n }));
    const sol = planTransfers({ sender, asset: { kind: "sol" } }, solRows);
    expect(sol.transactions.map((t) => t.rowIdxs.length)).toEqual([21, 21, 8]);
    const atas = tokenAccounts.get(TOKEN_PROGRAM_ADDRESS) as Map<Address, Address>;
    const token = planTransfers(
      {
        sender,
        asset: { kind: "token", mint, decimals: 0, tokenProgram: TOKEN_PROGRAM_ADDRESS, source },
        tokenAccounts: atas,
      },
      solRows.slice(0, 25),
    );
    expect(token.transactions.map((t) => t.rowIdxs.length)).toEqual([10, 10, 5]);
    expect(token.newAccounts).toHaveLength(25);
  });

  it("packs rows that create accounts first, then the rest", () => {
    const atas = tokenAccounts.get(TOKEN_PROGRAM_ADDRESS) as Map<Address, Address>;
    const rows = pool.slice(0, 6).map((address, index) => ({ index, address, amount: 1n }));
    const existing = new Set([
      atas.get(rows[0]?.address as Address),
      atas.get(rows[2]?.address as Address),
    ] as Address[]);
    const plan = planTransfers(
      {
        sender,
        asset: { kind: "token", mint, decimals: 0, tokenProgram: TOKEN_PROGRAM_ADDRESS, source },
        tokenAccounts: atas,
        existingAccounts: existing,
      },
      rows,
    );
    expect(plan.transactions.flatMap((t) => t.rowIdxs)).toEqual([1, 3, 4, 5, 0, 2]);
  });

  it("refuses rows it cannot build", () => {
    expect(() =>
      planTransfers({ sender, asset: { kind: "sol" } }, [{ index: 0, address: pool[0] as Address, amount: 0n }]),
    ).toThrow(RangeError);
    expect(() =>
      planTransfers(
        { sender, asset: { kind: "token", mint, decimals: 0, tokenProgram: TOKEN_PROGRAM_ADDRESS, source } },
        [{ index: 0, address: pool[0] as Address, amount: 1n }],
      ),
    ).toThrow(/no token account/);
  });
});

describe("packItems", () => {
  it("throws PackError for an item that cannot fit alone", () => {
    const rows = pool.slice(0, 30).map((address, index) => ({ index, address, amount: 1n }));
    const all = transferInstructions({ sender, asset: { kind: "sol" } }, rows);
    expect(() => packItems([{ instructions: all }], { feePayer: sender })).toThrow(PackError);
    expect(() => packItems([], { feePayer: sender, maxBytes: 2000 })).toThrow(RangeError);
  });
});

describe("planCloseAccounts", () => {
  const account = (i: number, program: Address): TokenAccountInfo => ({
    address: pool[i] as Address,
    program,
    mint,
    owner: sender,
    amount: 0n,
    lamports: 2_039_280n + BigInt(i),
    isNative: false,
    state: "initialized",
    closeAuthority: null,
    withheldAmount: 0n,
    extensions: [],
  });

  it("never exceeds the size limit, closes every account exactly once and sums rent per transaction", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.nat({ max: pool.length - 1 }), { minLength: 1, maxLength: 100 }),
        fc.constantFrom(TRANSACTION_SIZE_LIMIT, WALLET_HEADROOM_SIZE),
        fc.func(fc.boolean()),
        (idxs, maxBytes, is2022) => {
          const accounts = idxs.map((i) =>
            account(i, is2022(i) ? TOKEN_2022_PROGRAM_ADDRESS : (TOKEN_PROGRAM_ADDRESS as Address)),
          );
          const plan = planCloseAccounts(accounts, sender, { maxBytes });
          expect(plan.flatMap((t) => t.accounts)).toEqual(accounts.map((a) => a.address));
          for (const tx of plan) {
            expect(measureInstructions(tx.instructions, { feePayer: sender })).toBeLessThanOrEqual(maxBytes);
            expect(tx.instructions.map((ix) => ix.accounts?.[1]?.address)).toEqual(tx.accounts.map(() => sender));
            expect(tx.rent).toBe(
              accounts.filter((a) => tx.accounts.includes(a.address)).reduce((s, a) => s + a.lamports, 0n),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
