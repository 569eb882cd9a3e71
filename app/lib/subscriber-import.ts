// What the subscribers page shows of a background subscriber import (server side:
// app/server/newsletter/subscriber-import.server.ts; docs/decisions/011-subscriber-import.md).

export type ImportJobStatus = "queued" | "running" | "done" | "failed";

export interface ImportJobView {
  id: string;
  status: ImportJobStatus;
  fileName: string;
  actorEmail: string;
  createdAt: string;
  finishedAt: string | null;
  /** Candidate rows stored at upload, and how many of them the worker has done. */
  total: number;
  processed: number;
  imported: number;
  existing: number;
  duplicates: number;
  notSubscribed: number;
  invalid: number;
  problems: Array<{ line: number; reason: "emailMissing" | "emailInvalid" | "languageUnknown"; value: string }>;
}

export const importInFlight = (job: Pick<ImportJobView, "status">): boolean =>
  job.status === "queued" || job.status === "running";

/** Rows done out of the candidates, as the progress bar shows them. */
export function importProgress(job: Pick<ImportJobView, "total" | "processed">): {
  done: number;
  total: number;
  percent: number;
} {
  const total = job.total;
  const done = Math.min(job.processed, total);
  return { done, total, percent: total === 0 ? 100 : Math.floor((done / total) * 100) };
}
