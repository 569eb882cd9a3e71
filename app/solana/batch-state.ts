/**
 * The batch page's state, as a reducer: what the reader is editing (the draft), the list as
 * last checked, and the job sending it. The rule that keeps money honest: row statuses belong
 * to the job that produced them. A job is shown only with its own rows; changing the asset or
 * the list, checking a list again, or "Start a new batch" ends the job on screen, and a
 * finished one moves to `past`, where its results stay downloadable. Checking a list never
 * inherits a previous job's "paid" rows, and a new list always gets its own confirmation.
 */
import { isJobFinished, type Job } from "../lib/solana/job.ts";

export type AssetKind = "sol" | "token";

export interface BatchDraft {
  assetKind: AssetKind;
  mintInput: string;
  text: string;
}

export interface BatchState<Checked> {
  draft: BatchDraft;
  /** The draft as last checked: what "Sign all and send" would send. Null once the draft changes. */
  checked: Checked | null;
  confirmDup: boolean;
  confirmOffCurve: boolean;
  /** The job on screen (running, interrupted or finished); its rows are the ones shown. */
  job: Job | null;
  /** Finished jobs of this page view, newest first. */
  past: Job[];
  running: boolean;
}

export type BatchAction<Checked> =
  | { type: "edit"; patch: Partial<BatchDraft> }
  | { type: "checking" }
  | { type: "checked"; checked: Checked }
  | { type: "confirm"; which: "dup" | "offCurve"; value: boolean }
  /** A new job made from the checked list. */
  | { type: "start"; job: Job }
  /** The job on screen again, or one found unfinished in the job store. */
  | { type: "resume"; job: Job }
  | { type: "progress"; job: Job }
  | { type: "stopped" }
  | { type: "newBatch" };

export function initialBatchState<Checked>(): BatchState<Checked> {
  return {
    draft: { assetKind: "sol", mintInput: "", text: "" },
    checked: null,
    confirmDup: false,
    confirmOffCurve: false,
    job: null,
    past: [],
    running: false,
  };
}

/** Ends the job on screen: a finished one is kept in `past`, an unfinished one stays in the job store. */
function endJob<Checked>(state: BatchState<Checked>): BatchState<Checked> {
  if (!state.job) return state;
  const past = isJobFinished(state.job) ? [state.job, ...state.past.filter((j) => j.id !== state.job?.id)] : state.past;
  return { ...state, job: null, past };
}

export function batchReducer<Checked>(state: BatchState<Checked>, action: BatchAction<Checked>): BatchState<Checked> {
  switch (action.type) {
    case "edit":
      // Nothing on screen changes under a job that is sending.
      if (state.running) return state;
      return {
        ...endJob(state),
        draft: { ...state.draft, ...action.patch },
        checked: null,
        confirmDup: false,
        confirmOffCurve: false,
      };
    case "checking":
      if (state.running) return state;
      return { ...endJob(state), checked: null, confirmDup: false, confirmOffCurve: false };
    case "checked":
      if (state.running) return state;
      return { ...endJob(state), checked: action.checked, confirmDup: false, confirmOffCurve: false };
    case "confirm":
      return action.which === "dup"
        ? { ...state, confirmDup: action.value }
        : { ...state, confirmOffCurve: action.value };
    case "start":
      if (state.running || state.checked === null) return state;
      return { ...endJob(state), job: action.job, running: true };
    case "resume":
      if (state.running) return state;
      if (state.job?.id === action.job.id) return { ...state, job: action.job, running: true };
      // A stored job shows its own rows, not the list being edited.
      return {
        ...endJob(state),
        job: action.job,
        running: true,
        checked: null,
        confirmDup: false,
        confirmOffCurve: false,
      };
    case "progress":
      return state.job?.id === action.job.id ? { ...state, job: action.job } : state;
    case "stopped":
      return { ...state, running: false };
    case "newBatch":
      if (state.running) return state;
      return {
        ...endJob(state),
        draft: { ...state.draft, text: "" },
        checked: null,
        confirmDup: false,
        confirmOffCurve: false,
      };
  }
}
