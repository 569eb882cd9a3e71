import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { shortAddress } from "../lib/solana/address.ts";
import { formatAmount, SOL_DECIMALS } from "../lib/solana/amount.ts";
import type { RecipientsParseResult } from "../lib/solana/csv.ts";
import { type Job, jobResultsCsv, rowStatuses } from "../lib/solana/job.ts";
import type { CheckedBatch, costAt } from "./batch-check.ts";
import { sol } from "./ui.tsx";

export const decimalsOf = (asset: CheckedBatch["asset"] | Job["asset"]) =>
  asset.kind === "sol" ? SOL_DECIMALS : asset.decimals;
export const unitOf = (asset: CheckedBatch["asset"] | Job["asset"]) =>
  asset.kind === "token" ? shortAddress(asset.mint) : "SOL";

function Table({ statusHeading, children }: { statusHeading: string; children: React.ReactNode }) {
  const { t } = useTranslation("solana");
  return (
    <table className="w-full text-left text-sm" data-testid="rows">
      <thead>
        <tr>
          <th scope="col">{t("batch.line")}</th>
          <th scope="col">{t("batch.address")}</th>
          <th scope="col">{t("batch.amount")}</th>
          <th scope="col">{statusHeading}</th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** The checked list: each row with its problems, before anything is sent. */
export function CheckedRows({ parsed, decimals }: { parsed: RecipientsParseResult; decimals: number }) {
  const { t } = useTranslation("solana");
  return (
    <Table statusHeading={t("batch.problems")}>
      {parsed.rows.map((r) => (
        <tr key={r.line} data-status="">
          <td>{r.line}</td>
          <td className="font-mono" title={r.rawAddress}>
            {r.address ? shortAddress(r.address, 6) : r.rawAddress}
          </td>
          <td>{r.amount !== null ? formatAmount(r.amount, decimals) : r.rawAmount}</td>
          <td>
            {r.errors.length + r.warnings.length === 0
              ? t("batch.ok")
              : [...r.errors, ...r.warnings].map((c) => t(`codes.${c}`)).join(" ")}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** A job's own rows and their statuses: never another list's. */
export function JobRows({ job }: { job: Job }) {
  const { t } = useTranslation("solana");
  const statuses = new Map(rowStatuses(job).map((s) => [s.index, s.status]));
  const decimals = decimalsOf(job.asset);
  return (
    <Table statusHeading={t("batch.status")}>
      {job.rows.map((r) => {
        const status = statuses.get(r.index) ?? "pending";
        return (
          <tr key={r.index} data-status={status}>
            <td>{r.line}</td>
            <td className="font-mono" title={r.address}>
              {shortAddress(r.address, 6)}
            </td>
            <td>{formatAmount(r.amount, decimals)}</td>
            <td>{t(`batch.rowStatus.${status}`)}</td>
          </tr>
        );
      })}
    </Table>
  );
}

/** What the batch costs at the chosen price, and what the wallet lacks for it. */
export function CostSummary({ checked, priced }: { checked: CheckedBatch; priced: ReturnType<typeof costAt> }) {
  const { t, i18n } = useTranslation("solana");
  const { cost, problems } = priced;
  const { asset } = checked;
  const decimals = decimalsOf(asset);
  const units = checked.unitLimits.reduce((sum, n) => sum + n, 0);
  return (
    <div className="space-y-1" data-testid="cost">
      <h2 className="text-lg font-semibold">{t("batch.cost")}</h2>
      <p>{t("batch.costTransactions", { count: cost.transactions })}</p>
      <p>{t("batch.costFees", { amount: sol(cost.networkFees) })}</p>
      <p data-testid="cost-priority">
        {t("batch.costPriority", {
          amount: sol(cost.priorityFees),
          units: new Intl.NumberFormat(i18n.language === "zh" ? "zh-CN" : "en").format(units),
        })}
      </p>
      {cost.newAccountRent > 0n && <p>{t("batch.costRent", { amount: sol(cost.newAccountRent) })}</p>}
      <p>{t("batch.costTotal", { amount: `${formatAmount(cost.totalAmount, decimals)} ${unitOf(asset)}` })}</p>
      <p data-testid="cost-needed">{t("batch.costNeeded", { amount: sol(cost.lamportsNeeded) })}</p>
      {problems.map((p) => (
        <p key={p.code} role="alert" className="text-red-700 dark:text-red-400">
          {t(`codes.${p.code}`, {
            amount: p.code === "balance.insufficientSol" ? sol(p.shortfall) : formatAmount(p.shortfall, decimals),
          })}
        </p>
      ))}
    </div>
  );
}

function resultsHref(job: Job): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(jobResultsCsv(job))}`;
}

export function JobProgress({ job, twice }: { job: Job; twice: readonly number[] }) {
  const { t } = useTranslation("solana");
  const rows = rowStatuses(job);
  const paid = rows.filter((r) => r.status === "confirmed").length;
  const href = useMemo(() => resultsHref(job), [job]);
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

/** Batches finished earlier in this page view: their results stay downloadable. */
export function PastBatches({ jobs }: { jobs: readonly Job[] }) {
  const { t } = useTranslation("solana");
  if (jobs.length === 0) return null;
  return (
    <section aria-labelledby="past-batches" className="space-y-1" data-testid="past-batches">
      <h2 id="past-batches" className="text-lg font-semibold">
        {t("batch.pastTitle")}
      </h2>
      <ul className="list-disc pl-5 text-sm">
        {jobs.map((job) => {
          const rows = rowStatuses(job);
          const paid = rows.filter((r) => r.status === "confirmed").length;
          return (
            <li key={job.id}>
              {t("batch.pastItem", { asset: unitOf(job.asset), paid, total: rows.length })}{" "}
              <a href={resultsHref(job)} download={`batch-${job.id}.csv`} className="underline">
                {t("batch.downloadResults")}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
