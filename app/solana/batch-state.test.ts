import { describe, expect, it } from "vitest";
import { createJob, isJobFinished, type Job } from "../lib/solana/job.ts";
import { type BatchAction, type BatchState, batchReducer, initialBatchState } from "./batch-state.ts";

type Checked = { list: string };

function job(id: string, status: "unsigned" | "confirmed"): Job {
  const made = createJob({
    id,
    createdAt: "2026-11-25T00:00:00.000Z",
    sender: "sender",
    asset: { kind: "sol" },
    rows: [0, 1, 2].map((index) => ({ index, line: index + 1, address: `r${index}`, amount: 1n })),
    txs: [{ rowIdxs: [0, 1, 2] }],
  });
  return { ...made, txs: made.txs.map((tx) => ({ ...tx, status })) };
}

function run(actions: BatchAction<Checked>[]): BatchState<Checked> {
  return actions.reduce(batchReducer<Checked>, initialBatchState<Checked>());
}

describe("the batch page's state", () => {
  const first = job("first", "unsigned");
  const firstDone = job("first", "confirmed");

  it("checking a new list after a finished batch shows no job and keeps the old results", () => {
    // The defect: a token batch checked after a SOL batch showed the SOL batch's rows as paid.
    const state = run([
      { type: "checked", checked: { list: "five SOL rows" } },
      { type: "start", job: first },
      { type: "progress", job: firstDone },
      { type: "stopped" },
      { type: "edit", patch: { assetKind: "token" } },
      { type: "checked", checked: { list: "three token rows" } },
    ]);
    expect(isJobFinished(firstDone)).toBe(true);
    expect(state.job).toBeNull();
    expect(state.checked).toEqual({ list: "three token rows" });
    expect(state.past.map((j) => j.id)).toEqual(["first"]);
    expect(state.running).toBe(false);
  });

  it("a changed list must be checked again before it can be sent", () => {
    const state = run([
      { type: "checked", checked: { list: "a" } },
      { type: "confirm", which: "dup", value: true },
      { type: "edit", patch: { text: "another list" } },
    ]);
    expect(state.checked).toBeNull();
    expect(state.confirmDup).toBe(false);
    expect(state.draft.text).toBe("another list");
  });

  it("nothing changes under a job that is sending", () => {
    const sending = run([
      { type: "checked", checked: { list: "a" } },
      { type: "start", job: first },
    ]);
    const attempts: BatchAction<Checked>[] = [
      { type: "edit", patch: { text: "x" } },
      { type: "checked", checked: { list: "b" } },
      { type: "newBatch" },
      { type: "start", job: job("second", "unsigned") },
    ];
    const after = attempts.reduce(batchReducer<Checked>, sending);
    expect(after).toBe(sending);
  });

  it("starts only from a checked list, and a new batch clears the list and keeps the finished job", () => {
    expect(run([{ type: "start", job: first }]).job).toBeNull();
    const state = run([
      { type: "edit", patch: { text: "rows" } },
      { type: "checked", checked: { list: "rows" } },
      { type: "start", job: first },
      { type: "progress", job: firstDone },
      { type: "stopped" },
      { type: "newBatch" },
    ]);
    expect(state).toMatchObject({ job: null, checked: null, draft: { text: "" } });
    expect(state.past).toEqual([firstDone]);
  });

  it("an interrupted job left for another list stays out of the finished results", () => {
    const state = run([
      { type: "checked", checked: { list: "a" } },
      { type: "start", job: first },
      { type: "stopped" },
      { type: "edit", patch: { text: "b" } },
    ]);
    expect(state.job).toBeNull();
    expect(state.past).toEqual([]);
  });

  it("resuming a stored job shows that job's rows, not the list being edited", () => {
    const stored = job("stored", "unsigned");
    const state = run([
      { type: "checked", checked: { list: "a" } },
      { type: "resume", job: stored },
    ]);
    expect(state.job?.id).toBe("stored");
    expect(state.checked).toBeNull();
    const again = run([
      { type: "checked", checked: { list: "a" } },
      { type: "start", job: first },
      { type: "stopped" },
      { type: "resume", job: first },
    ]);
    expect(again.checked).toEqual({ list: "a" });
    expect(again.running).toBe(true);
  });

  it("ignores progress from a job no longer on screen", () => {
    const state = run([
      { type: "checked", checked: { list: "a" } },
      { type: "progress", job: firstDone },
    ]);
    expect(state.job).toBeNull();
  });
});
