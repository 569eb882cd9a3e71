import { describe, expect, it } from "vitest";
import { belowTarget, failingAudits, formatPage, type LighthouseReport, pageScores } from "./lighthouse-scores.ts";

const audit = (id: string, score: number | null, scoreDisplayMode = "binary", displayValue?: string) => ({
  id,
  title: `Title of ${id}`,
  score,
  scoreDisplayMode,
  ...(displayValue ? { displayValue } : {}),
});

const report: LighthouseReport = {
  categories: {
    performance: {
      title: "Performance",
      score: 0.834,
      auditRefs: [
        { id: "largest-contentful-paint", weight: 25 },
        { id: "total-blocking-time", weight: 30 },
        { id: "unused-javascript", weight: 0 },
        { id: "speed-index", weight: 10 },
        { id: "diagnostics", weight: 0 },
      ],
    },
    accessibility: {
      title: "Accessibility",
      score: 1,
      auditRefs: [{ id: "color-contrast", weight: 7 }],
    },
    "best-practices": {
      title: "Best Practices",
      score: 0.96,
      auditRefs: [
        { id: "inspector-issues", weight: 1 },
        { id: "is-on-https", weight: 5 },
        { id: "deprecations", weight: 5 },
      ],
    },
    seo: { title: "SEO", score: null, auditRefs: [] },
  },
  audits: {
    "largest-contentful-paint": audit("largest-contentful-paint", 0.78, "numeric", "3.0 s"),
    "total-blocking-time": audit("total-blocking-time", 0.73, "numeric", "350 ms"),
    "unused-javascript": audit("unused-javascript", 0, "metricSavings", "Est savings of 29 KiB"),
    "speed-index": audit("speed-index", 1, "numeric", "1.0 s"),
    diagnostics: audit("diagnostics", null, "informative"),
    "color-contrast": audit("color-contrast", 1),
    "inspector-issues": audit("inspector-issues", 0),
    "is-on-https": audit("is-on-https", 1),
    deprecations: audit("deprecations", null, "notApplicable"),
  },
};

describe("Lighthouse scores", () => {
  it("turns category scores into whole numbers out of 100, null when not scored", () => {
    const scores = pageScores(report);
    expect(scores.performance.score).toBe(83);
    expect(scores.accessibility.score).toBe(100);
    expect(scores["best-practices"].score).toBe(96);
    expect(scores.seo.score).toBeNull();
    expect(belowTarget(scores)).toEqual(["performance", "best-practices", "seo"]);
  });

  it("lists the scored audits below 1, heaviest first, and skips passed and unscored ones", () => {
    expect(failingAudits(report, "performance")).toEqual([
      {
        id: "total-blocking-time",
        title: "Title of total-blocking-time",
        score: 73,
        weight: 30,
        displayValue: "350 ms",
      },
      {
        id: "largest-contentful-paint",
        title: "Title of largest-contentful-paint",
        score: 78,
        weight: 25,
        displayValue: "3.0 s",
      },
      {
        id: "unused-javascript",
        title: "Title of unused-javascript",
        score: 0,
        weight: 0,
        displayValue: "Est savings of 29 KiB",
      },
    ]);
    expect(failingAudits(report, "best-practices").map((a) => a.id)).toEqual(["inspector-issues"]);
  });

  it("lists failing audits only for categories below target, and prints them", () => {
    const scores = pageScores(report);
    expect(scores.accessibility.failing).toEqual([]);
    const lines = formatPage("home", "/", scores);
    expect(lines[0]).toBe("home (/): performance 83 · accessibility 100 · best-practices 96 · seo n/a  BELOW TARGET");
    expect(lines).toContain("  performance 83 < 95; audits that cost points:");
    expect(lines).toContain("    - inspector-issues: Title of inspector-issues, score 0, weight 1");
    expect(lines.some((l) => l.includes("color-contrast"))).toBe(false);
  });

  it("says when every score is on target", () => {
    const perfect: LighthouseReport = {
      audits: {},
      categories: Object.fromEntries(
        ["performance", "accessibility", "best-practices", "seo"].map((c) => [
          c,
          { title: c, score: 1, auditRefs: [] },
        ]),
      ),
    };
    expect(formatPage("post", "/posts/detail/x", pageScores(perfect))).toEqual([
      "post (/posts/detail/x): performance 100 · accessibility 100 · best-practices 100 · seo 100  all on target",
    ]);
  });
});
