import { describe, expect, it } from "vitest";
import FlakyReporter, { firstFailure, MAX_FLAKY, statusWithFlaky } from "./flaky-reporter.ts";

type Outcome = "skipped" | "expected" | "unexpected" | "flaky";

/** The parts of a Playwright TestCase the reporter reads. */
function fakeTest(title: string, outcome: Outcome, message = "expect(locator).toBeVisible() failed") {
  const results =
    outcome === "flaky"
      ? [
          { status: "failed", retry: 0, error: { message, location: { file: "a.spec.ts", line: 7, column: 1 } } },
          { status: "passed", retry: 1 },
        ]
      : [{ status: outcome === "unexpected" ? "failed" : "passed", retry: 0 }];
  return { outcome: () => outcome, titlePath: () => ["", "chromium", "a.spec.ts", title], results };
}

async function run(tests: ReturnType<typeof fakeTest>[], status: "passed" | "failed" = "passed") {
  const reporter = new FlakyReporter();
  const printed: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => printed.push(args.join(" "));
  try {
    // The reporter only calls outcome(), titlePath() and results on what it is given.
    for (const t of tests) reporter.onTestEnd(t as never);
    const out = await reporter.onEnd({ status, startTime: new Date(0), duration: 1 });
    return { status: out.status, printed: printed.join("\n") };
  } finally {
    console.log = log;
  }
}

describe("the flaky-test reporter", () => {
  it("passes a run with up to the allowed flaky tests and names each with its first failure", async () => {
    const tests = [
      fakeTest("one", "expected"),
      ...Array.from({ length: MAX_FLAKY }, (_, i) => fakeTest(`f${i}`, "flaky")),
    ];
    const { status, printed } = await run(tests);
    expect(status).toBe("passed");
    expect(printed).toContain(`flaky: ${MAX_FLAKY} test(s)`);
    expect(printed).toContain("flaky: chromium › a.spec.ts › f0");
    expect(printed).toContain("attempt 1 (failed) at a.spec.ts:7");
    expect(printed).toContain("toBeVisible() failed");
    expect(printed).not.toContain("› one");
  });

  it("fails a run with more flaky tests than allowed", async () => {
    const tests = Array.from({ length: MAX_FLAKY + 1 }, (_, i) => fakeTest(`f${i}`, "flaky"));
    const { status, printed } = await run(tests);
    expect(status).toBe("failed");
    expect(printed).toContain("the run fails");
  });

  it("prints nothing for a run without retries and keeps a failed run failed", async () => {
    expect(await run([fakeTest("one", "expected")])).toEqual({ status: "passed", printed: "" });
    expect((await run([fakeTest("one", "unexpected")], "failed")).status).toBe("failed");
    expect(statusWithFlaky("interrupted", 10)).toBe("interrupted");
  });

  it("keeps the first failure short and without terminal colours", () => {
    const message = `\u001b[31mTimeout 20000ms exceeded\u001b[39m\n${Array.from({ length: 40 }, (_, i) => `call log ${i}`).join("\n")}`;
    const text = firstFailure([
      { status: "timedOut", retry: 0, error: { message } },
      { status: "passed", retry: 1 },
    ]);
    expect(text).toContain("attempt 1 (timedOut)");
    expect(text).toContain("Timeout 20000ms exceeded");
    expect(text).not.toContain("\u001b");
    expect(text.split("\n").length).toBeLessThanOrEqual(9);
  });
});
