import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * A browser test may be retried once (playwright.config.ts), but a retry is a report,
 * not a pass: every test that failed and then passed is printed here as "flaky" with
 * its first failure, and the run fails when more than MAX_FLAKY tests needed a retry.
 * One flaky test is a defect to fix; the allowance only keeps one unlucky run on a busy
 * machine from costing a whole session (issue 43).
 */
export const MAX_FLAKY = 2;

/** The first failure of a test, in a few lines: where and why. */
export function firstFailure(results: readonly Pick<TestResult, "status" | "error" | "retry">[]): string {
  const failed = results.find((r) => r.status !== "passed" && r.status !== "skipped");
  if (!failed) return "(no failed attempt recorded)";
  const message = failed.error?.message ?? failed.error?.value ?? `status ${failed.status}`;
  // Playwright's messages carry terminal colours and a long call log; the head says it.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is removed.
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  const lines = plain.split("\n").filter((l) => l.trim() !== "");
  const where = failed.error?.location
    ? `${failed.error.location.file}:${failed.error.location.line}`
    : "(no location)";
  return [`attempt ${failed.retry + 1} (${failed.status}) at ${where}`, ...lines.slice(0, 8)].join("\n");
}

/** What the run's status becomes once the flaky tests are counted. */
export function statusWithFlaky(status: FullResult["status"], flaky: number): FullResult["status"] {
  return status === "passed" && flaky > MAX_FLAKY ? "failed" : status;
}

export default class FlakyReporter implements Reporter {
  private readonly tests = new Set<TestCase>();

  onTestEnd(test: TestCase): void {
    this.tests.add(test);
  }

  printsToStdio(): boolean {
    return true;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult["status"] }> {
    const flaky = [...this.tests].filter((t) => t.outcome() === "flaky");
    if (flaky.length > 0) {
      console.log(`\nflaky: ${flaky.length} test(s) failed once and passed on retry (allowed: ${MAX_FLAKY})`);
      for (const t of flaky) {
        console.log(`\nflaky: ${t.titlePath().filter(Boolean).join(" › ")}`);
        console.log(
          firstFailure(t.results)
            .split("\n")
            .map((l) => `  ${l}`)
            .join("\n"),
        );
      }
    }
    const status = statusWithFlaky(result.status, flaky.length);
    if (status !== result.status) {
      console.log(`\nflaky: more than ${MAX_FLAKY} flaky tests: the run fails. Fix them at their cause.`);
    }
    return { status };
  }
}
