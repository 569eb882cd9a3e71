import type { Address } from "@solana/kit";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { NOINDEX, pageMeta } from "../../lib/meta.ts";
import { parseAddress, shortAddress } from "../../lib/solana/address.ts";
import { formatAmount, SOL_DECIMALS } from "../../lib/solana/amount.ts";
import type { TokenAccountInfo } from "../../lib/solana/close-accounts.ts";
import { parseRecipientsCsv, payableRows, type RecipientsParseResult } from "../../lib/solana/csv.ts";
import { createJob, isJobFinished, type Job, jobResultsCsv, rowStatuses } from "../../lib/solana/job.ts";
import { WALLET_HEADROOM_SIZE } from "../../lib/solana/pack.ts";
import {
  type BalanceProblem,
  balanceProblems,
  isTokenProgram,
  type MintIssueCode,
  mintIssues,
  planTransfers,
  recipientTokenAccounts,
  rowsBelowRentExemption,
  TOKEN_2022_PROGRAM_ADDRESS,
  type TransferAsset,
  type TransferContext,
  type TransferCost,
  transferCost,
} from "../../lib/solana/transfer-plan.ts";
import { runJob, SendError, SimulationError } from "../../solana/batch-runner.ts";
import { solanaTitle } from "../../solana/i18n.ts";
import { createIndexedDbJobStore } from "../../solana/job-store.ts";
import { loadTokenAccounts } from "../../solana/rpc.ts";
import { useSolana } from "../../solana/solana-context.tsx";
import { Status, type StatusState, sol, ToolPage, useFailures } from "../../solana/ui.tsx";
import type { Route } from "./+types/transfer-batch";

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, solanaTitle(matches, "batch"), [NOINDEX]);
}

interface Checked {
  parsed: RecipientsParseResult;
  asset: TransferAsset;
  ctx: TransferContext;
  plan: ReturnType<typeof planTransfers>;
  cost: TransferCost;
  problems: BalanceProblem[];
  belowRent: number[];
}

export default function TransferBatch() {
  const { t } = useTranslation("solana");
  const { rpc, address, wallet, account, chain } = useSolana();
  const store = useMemo(() => (typeof indexedDB === "undefined" ? null : createIndexedDbJobStore()), []);
  const [assetKind, setAssetKind] = useState<"sol" | "token">("sol");
  const [tokens, setTokens] = useState<TokenAccountInfo[]>([]);
  const [mintInput, setMintInput] = useState("");
  const [text, setText] = useState("");
  const [checked, setChecked] = useState<Checked | null>(null);
  const [mintProblems, setMintProblems] = useState<MintIssueCode[]>([]);
  const [confirmDup, setConfirmDup] = useState(false);
  const [confirmOffCurve, setConfirmOffCurve] = useState(false);
  const [job, setJob] = useState<Job | null>(null);
  const [unfinished, setUnfinished] = useState<Job | null>(null);
  const [running, setRunning] = useState(false);
  const [status, setStatus] = useState<StatusState>({ message: "", error: false });
  const fail = useFailures();
  const [twice, setTwice] = useState<number[]>([]);

  useEffect(() => {
    if (!store) return;
    void store.list().then((jobs) => {
      const open = jobs.filter((j) => !isJobFinished(j)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      setUnfinished(open[0] ?? null);
    });
  }, [store]);

  useEffect(() => {
    if (!address) return;
    loadTokenAccounts(rpc, address)
      .then((list) => setTokens(list.filter((a) => a.amount > 0n)))
      .catch(() => setTokens([]));
  }, [rpc, address]);

  async function tokenAsset(): Promise<{ asset: TransferAsset; issues: MintIssueCode[] } | null> {
    const mint = parseAddress(mintInput);
    if (!mint.ok) {
      setStatus({ message: t(`codes.${mint.code}`), error: true });
      return null;
    }
    const { value } = await rpc.getAccountInfo(mint.address, { encoding: "jsonParsed" }).send();
    const data = value?.data as
      | { parsed?: { type?: string; info?: { decimals?: number; extensions?: { extension: string }[] } } }
      | undefined;
    const info = data?.parsed?.type === "mint" ? data.parsed.info : undefined;
    if (!value || !info || typeof info.decimals !== "number" || !isTokenProgram(value.owner)) {
      setStatus({ message: t("batch.mintNotFound"), error: true });
      return null;
    }
    const source = tokens.filter((a) => a.mint === mint.address).sort((a, b) => (b.amount > a.amount ? 1 : -1))[0];
    if (!source) {
      setStatus({ message: t("batch.mintNotFound"), error: true });
      return null;
    }
    return {
      asset: {
        kind: "token",
        mint: mint.address,
        decimals: info.decimals,
        tokenProgram: value.owner,
        source: source.address,
      },
      issues: mintIssues((info.extensions ?? []).map((e) => e.extension)),
    };
  }

  async function check() {
    if (!address) return;
    setChecked(null);
    setConfirmDup(false);
    setConfirmOffCurve(false);
    setStatus({ message: "", error: false });
    try {
      let asset: TransferAsset = { kind: "sol" };
      let issues: MintIssueCode[] = [];
      if (assetKind === "token") {
        const found = await tokenAsset();
        if (!found) return;
        asset = found.asset;
        issues = found.issues;
      }
      setMintProblems(issues);
      const decimals = asset.kind === "sol" ? SOL_DECIMALS : asset.decimals;
      const parsed = parseRecipientsCsv(text, {
        decimals,
        sender: address,
        mint: asset.kind === "token" ? asset.mint : null,
      });
      const rows = payableRows(parsed);
      if (!parsed.ok || rows.length === 0) {
        setChecked({
          parsed,
          asset,
          ctx: { sender: address, asset },
          plan: { transactions: [], newAccounts: [] },
          cost: emptyCost,
          problems: [],
          belowRent: [],
        });
        return;
      }
      let ctx: TransferContext = { sender: address, asset };
      let accountRent = 0n;
      if (asset.kind === "token") {
        const tokenAccounts = await recipientTokenAccounts(
          rows.map((r) => r.address),
          asset.mint,
          asset.tokenProgram,
        );
        const list = [...new Set(tokenAccounts.values())];
        const { value } = await rpc.getMultipleAccounts(list, { encoding: "base64" }).send();
        const existingAccounts = new Set(list.filter((_, i) => value[i] !== null));
        ctx = { sender: address, asset, tokenAccounts, existingAccounts };
        const size = asset.tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? 170n : 165n;
        accountRent = await rpc.getMinimumBalanceForRentExemption(size).send();
      }
      const plan = planTransfers(ctx, rows, { maxBytes: WALLET_HEADROOM_SIZE });
      const cost = transferCost(plan, rows, asset, { accountRent });
      const { value: lamports } = await rpc.getBalance(address, { commitment: "confirmed" }).send();
      const tokenBalance = asset.kind === "token" ? tokens.find((a) => a.address === asset.source)?.amount : undefined;
      const problems = balanceProblems(cost, asset, { lamports, tokenBalance });
      let belowRent: number[] = [];
      if (asset.kind === "sol") {
        const recipients = [...new Set(rows.map((r) => r.address))];
        const balances = new Map<Address, bigint>();
        for (let i = 0; i < recipients.length; i += 100) {
          const chunk = recipients.slice(i, i + 100);
          const { value } = await rpc.getMultipleAccounts(chunk, { encoding: "base64" }).send();
          for (const [j, a] of chunk.entries()) balances.set(a, value[j]?.lamports ?? 0n);
        }
        belowRent = rowsBelowRentExemption(rows, balances);
      }
      setChecked({ parsed, asset, ctx, plan, cost, problems, belowRent });
    } catch (error) {
      const failure = fail.error(error);
      setStatus({ message: t("rpcError", { error: failure.message }), detail: failure.detail, error: true });
    }
  }

  async function run(start: Job) {
    if (!store || !wallet || !account) return;
    if (start.sender !== address) {
      setStatus({ message: t("batch.wrongSender", { address: start.sender }), error: true });
      return;
    }
    setRunning(true);
    setJob(start);
    setTwice([]);
    try {
      const done = await runJob(start, {
        rpc,
        store,
        wallet,
        account,
        chain,
        onJob: setJob,
        onLandedTwice: (i) => setTwice((list) => (list.includes(i) ? list : [...list, i])),
        onMessage: (code, count) => {
          const message =
            code === "signing"
              ? t("tx.confirmInWallet", { count: count ?? 0 })
              : code === "simulating"
                ? t("tx.simulating")
                : code === "confirming"
                  ? t("tx.confirming")
                  : t("tx.state.sending");
          setStatus({ message, error: false });
        },
      });
      const rows = rowStatuses(done);
      const ok = done.txs.filter((tx) => tx.status === "confirmed").length;
      setStatus({
        message: t("tx.finished", { ok, total: done.txs.length }),
        error: rows.some((r) => r.status === "failed"),
      });
      setUnfinished(null);
    } catch (error) {
      if (error instanceof SimulationError) {
        const failure = fail.tx(error.err, error.logs);
        setStatus({
          message: t("tx.simulationFailed", { error: failure.message }),
          detail: failure.detail,
          error: true,
        });
      } else if (error instanceof SendError) {
        const failure = fail.error(error.cause);
        setStatus({
          message: t("tx.sendFailed", { n: error.txIndex + 1, error: failure.message }),
          detail: failure.detail,
          error: true,
        });
      } else {
        const failure = fail.error(error);
        setStatus({ message: t("tx.error", { error: failure.message }), detail: failure.detail, error: true });
      }
    } finally {
      setRunning(false);
    }
  }

  async function start() {
    if (!checked || !address || !store) return;
    const lines = new Map(checked.parsed.rows.map((r) => [r.index, r.line]));
    const newJob = createJob({
      id: crypto.randomUUID(),
      createdAt: new Date().toISOString(),
      sender: address,
      asset: checked.asset,
      rows: payableRows(checked.parsed).map((r) => ({ ...r, line: lines.get(r.index) ?? 0 })),
      txs: checked.plan.transactions,
    });
    // Saved before anything is signed or sent.
    await store.put(newJob);
    setStatus({ message: t("batch.saved"), error: false });
    await run(newJob);
  }

  const parsed = checked?.parsed;
  const hasDup = parsed?.rows.some((r) => r.warnings.includes("row.duplicate")) ?? false;
  const hasOffCurve = parsed?.rows.some((r) => r.warnings.includes("row.offCurve")) ?? false;
  const blockingMint = mintProblems.some((c) => c !== "mint.transferFee");
  const canSend =
    !!checked &&
    checked.parsed.ok &&
    checked.plan.transactions.length > 0 &&
    checked.problems.length === 0 &&
    checked.belowRent.length === 0 &&
    !blockingMint &&
    (!hasDup || confirmDup) &&
    (!hasOffCurve || confirmOffCurve) &&
    !running;
  const decimals = checked ? (checked.asset.kind === "sol" ? SOL_DECIMALS : checked.asset.decimals) : SOL_DECIMALS;
  const unit = checked?.asset.kind === "token" ? shortAddress(checked.asset.mint) : "SOL";

  return (
    <ToolPage id="batch-title" title={t("batch.title")} intro={t("batch.intro")}>
      {unfinished && !running && !job && (
        <div className="space-y-2 rounded border border-zinc-400 p-3" data-testid="resume">
          <p>{t("batch.resumeFound", { date: unfinished.createdAt, rows: unfinished.rows.length })}</p>
          <div className="flex gap-2">
            <button
              type="button"
              disabled={!address}
              className="rounded bg-zinc-900 px-3 py-1 text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
              onClick={() => void run(unfinished)}
            >
              {t("batch.resume")}
            </button>
            <button
              type="button"
              className="rounded border border-zinc-400 px-3 py-1"
              onClick={() => {
                void store?.delete(unfinished.id);
                setUnfinished(null);
              }}
            >
              {t("batch.discard")}
            </button>
          </div>
        </div>
      )}
      {!address ? (
        <p>{t("connectFirst")}</p>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            void check();
          }}
        >
          <fieldset className="space-y-1">
            <legend className="font-semibold">{t("batch.asset")}</legend>
            <label className="mr-4">
              <input type="radio" name="asset" checked={assetKind === "sol"} onChange={() => setAssetKind("sol")} />{" "}
              {t("batch.assetSol")}
            </label>
            <label>
              <input type="radio" name="asset" checked={assetKind === "token"} onChange={() => setAssetKind("token")} />{" "}
              {t("batch.assetToken")}
            </label>
            {assetKind === "token" && (
              <div className="flex flex-wrap gap-3">
                <label className="flex flex-col gap-1">
                  <span>{t("batch.tokenPick")}</span>
                  <select
                    value={mintInput}
                    onChange={(e) => setMintInput(e.target.value)}
                    className="rounded border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
                  >
                    <option value="">—</option>
                    {tokens.map((a) => (
                      <option key={a.address} value={a.mint}>
                        {shortAddress(a.mint, 6)} ({a.amount.toString()})
                      </option>
                    ))}
                  </select>
                </label>
                <label className="flex flex-col gap-1">
                  <span>{t("batch.tokenMint")}</span>
                  <input
                    value={mintInput}
                    onChange={(e) => setMintInput(e.target.value)}
                    className="w-96 rounded border border-zinc-300 bg-white px-2 py-1 font-mono dark:border-zinc-700 dark:bg-zinc-900"
                  />
                </label>
              </div>
            )}
          </fieldset>
          <label className="flex flex-col gap-1">
            <span>{t("batch.csv")}</span>
            <textarea
              value={text}
              onChange={(e) => setText(e.target.value)}
              rows={8}
              className="rounded border border-zinc-300 bg-white p-2 font-mono text-sm dark:border-zinc-700 dark:bg-zinc-900"
            />
          </label>
          <label className="flex flex-col gap-1">
            <span>{t("batch.upload")}</span>
            <input
              type="file"
              accept=".csv,text/csv,text/plain"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void file.text().then(setText);
              }}
            />
          </label>
          <button type="submit" disabled={running} className="rounded border border-zinc-400 px-3 py-1">
            {t("batch.check")}
          </button>
        </form>
      )}
      <Status message={status.message} error={status.error} detail={status.detail} />
      {mintProblems.map((code) => (
        <p key={code} role="alert" className="text-red-700 dark:text-red-400">
          {t(`codes.${code}`)}
        </p>
      ))}
      {parsed && (
        <div className="space-y-3">
          {parsed.fileError && (
            <p role="alert" className="text-red-700 dark:text-red-400">
              {t(`codes.${parsed.fileError.code}`, { line: parsed.fileError.line ?? 0 })}
            </p>
          )}
          <p data-testid="rows-valid">
            {t("batch.rowsValid", {
              valid: parsed.rows.filter((r) => r.errors.length === 0).length,
              total: parsed.rows.length,
            })}
          </p>
          <ul className="text-sm text-red-700 dark:text-red-400" data-testid="row-errors">
            {parsed.rows.flatMap((r) =>
              r.errors.map((code) => (
                <li key={`${r.line}-${code}`}>{t("batch.rowError", { line: r.line, message: t(`codes.${code}`) })}</li>
              )),
            )}
            {checked?.belowRent.map((idx) => (
              <li key={`rent-${idx}`}>
                {t("batch.belowRent", { line: parsed.rows.find((r) => r.index === idx)?.line ?? 0 })}
              </li>
            ))}
          </ul>
          <RowsTable parsed={parsed} job={job} decimals={decimals} />
          {hasDup && (
            <label className="block">
              <input type="checkbox" checked={confirmDup} onChange={(e) => setConfirmDup(e.target.checked)} />{" "}
              {t("batch.confirmDuplicates")}
            </label>
          )}
          {hasOffCurve && (
            <label className="block">
              <input type="checkbox" checked={confirmOffCurve} onChange={(e) => setConfirmOffCurve(e.target.checked)} />{" "}
              {t("batch.confirmOffCurve")}
            </label>
          )}
          {checked && checked.plan.transactions.length > 0 && (
            <div className="space-y-1" data-testid="cost">
              <h2 className="text-lg font-semibold">{t("batch.cost")}</h2>
              <p>{t("batch.costTransactions", { count: checked.cost.transactions })}</p>
              <p>{t("batch.costFees", { amount: sol(checked.cost.networkFees + checked.cost.priorityFees) })}</p>
              {checked.cost.newAccountRent > 0n && (
                <p>{t("batch.costRent", { amount: sol(checked.cost.newAccountRent) })}</p>
              )}
              <p>{t("batch.costTotal", { amount: `${formatAmount(checked.cost.totalAmount, decimals)} ${unit}` })}</p>
              <p>{t("batch.costNeeded", { amount: sol(checked.cost.lamportsNeeded) })}</p>
              {checked.problems.map((p) => (
                <p key={p.code} role="alert" className="text-red-700 dark:text-red-400">
                  {t(`codes.${p.code}`, {
                    amount:
                      p.code === "balance.insufficientSol" ? sol(p.shortfall) : formatAmount(p.shortfall, decimals),
                  })}
                </p>
              ))}
            </div>
          )}
          {!job && (
            <button
              type="button"
              disabled={!canSend}
              onClick={() => void start()}
              className="rounded bg-zinc-900 px-4 py-2 text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
            >
              {t("batch.send")}
            </button>
          )}
        </div>
      )}
      {job && <JobProgress job={job} twice={twice} />}
      {job && !running && !isJobFinished(job) && (
        <button
          type="button"
          className="rounded bg-zinc-900 px-3 py-1 text-white dark:bg-zinc-100 dark:text-zinc-900"
          onClick={() => void run(job)}
        >
          {t("batch.resume")}
        </button>
      )}
    </ToolPage>
  );
}

const emptyCost: TransferCost = {
  transactions: 0,
  networkFees: 0n,
  priorityFees: 0n,
  newAccountRent: 0n,
  totalAmount: 0n,
  lamportsNeeded: 0n,
};

function RowsTable({ parsed, job, decimals }: { parsed: RecipientsParseResult; job: Job | null; decimals: number }) {
  const { t } = useTranslation("solana");
  const statuses = job ? new Map(rowStatuses(job).map((s) => [s.index, s.status])) : null;
  return (
    <table className="w-full text-left text-sm" data-testid="rows">
      <thead>
        <tr>
          <th scope="col">{t("batch.line")}</th>
          <th scope="col">{t("batch.address")}</th>
          <th scope="col">{t("batch.amount")}</th>
          <th scope="col">{statuses ? t("batch.status") : t("batch.problems")}</th>
        </tr>
      </thead>
      <tbody>
        {parsed.rows.map((r) => {
          const s = statuses?.get(r.index);
          return (
            <tr key={r.line} data-status={s ?? ""}>
              <td>{r.line}</td>
              <td className="font-mono" title={r.rawAddress}>
                {r.address ? shortAddress(r.address, 6) : r.rawAddress}
              </td>
              <td>{r.amount !== null ? formatAmount(r.amount, decimals) : r.rawAmount}</td>
              <td>
                {s
                  ? t(`batch.rowStatus.${s}`)
                  : r.errors.length + r.warnings.length === 0
                    ? t("batch.ok")
                    : [...r.errors, ...r.warnings].map((c) => t(`codes.${c}`)).join(" ")}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function JobProgress({ job, twice }: { job: Job; twice: number[] }) {
  const { t } = useTranslation("solana");
  const rows = rowStatuses(job);
  const paid = rows.filter((r) => r.status === "confirmed").length;
  const href = useMemo(() => `data:text/csv;charset=utf-8,${encodeURIComponent(jobResultsCsv(job))}`, [job]);
  return (
    <div className="space-y-2" data-testid="job">
      <progress className="w-full" max={rows.length} value={paid} aria-label={t("tx.progress")} />
      <p aria-live="polite" data-testid="job-paid">
        {t("batch.paid", { paid, total: rows.length })}
      </p>
      {twice.map((i) => (
        <p key={i} role="alert" className="text-red-700 dark:text-red-400">
          {t("batch.landedTwice", { n: i + 1 })}
        </p>
      ))}
      <a href={href} download={`batch-${job.id}.csv`} className="underline">
        {t("batch.downloadResults")}
      </a>
    </div>
  );
}
