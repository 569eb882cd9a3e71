import { describe, expect, it } from "vitest";
import {
  auditedPages,
  belowTarget,
  failingAudits,
  formatPage,
  formatTable,
  type LighthouseReport,
  PAGE_NAMES,
  pageMetrics,
  pageScores,
  parseOptions,
} from "./lighthouse-scores.ts";

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
    expect(lines).toContain("  performance 83 < 100; audits that cost points:");
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

describe("Lighthouse pages", () => {
  const picked = { home: "/", post: "/posts/detail/en1", postZh: "/posts/detail/zh1" };

  it("audits home and post in English and under /zh by default", () => {
    expect(parseOptions([]).pages).toEqual(["home", "post", "home-zh", "post-zh"]);
    expect(auditedPages(picked, parseOptions([]).pages)).toEqual([
      { name: "home", locale: "en", path: "/" },
      { name: "post", locale: "en", path: "/posts/detail/en1" },
      { name: "home-zh", locale: "zh", path: "/zh" },
      { name: "post-zh", locale: "zh", path: "/zh/posts/detail/zh1" },
    ]);
    expect(auditedPages(picked).map((p) => p.name)).toEqual([...PAGE_NAMES]);
  });

  it("picks a subset with --only, by page or by language, in the usual order", () => {
    expect(parseOptions(["--only", "zh"]).pages).toEqual(["home-zh", "post-zh"]);
    expect(parseOptions(["--only", "en"]).pages).toEqual(["home", "post"]);
    expect(parseOptions(["--only", "post-zh, home"]).pages).toEqual(["home", "post-zh"]);
    expect(auditedPages(picked, ["post-zh"])).toEqual([
      { name: "post-zh", locale: "zh", path: "/zh/posts/detail/zh1" },
    ]);
    expect(() => parseOptions(["--only", "fr"])).toThrow(/--only/);
    expect(() => parseOptions(["--pages", "zh"])).toThrow();
  });

  it("prints the scores and lab metrics as a Markdown table, one row per page", () => {
    const perfect: LighthouseReport = {
      categories: Object.fromEntries(
        ["performance", "accessibility", "best-practices", "seo"].map((c) => [
          c,
          { title: c, score: 1, auditRefs: [] },
        ]),
      ),
      audits: {
        "first-contentful-paint": { ...audit("first-contentful-paint", 1, "numeric"), numericValue: 812.4 },
        "largest-contentful-paint": { ...audit("largest-contentful-paint", 1, "numeric"), numericValue: 1062 },
        "cumulative-layout-shift": { ...audit("cumulative-layout-shift", 1, "numeric"), numericValue: 0.00042 },
        "total-blocking-time": { ...audit("total-blocking-time", 1, "numeric"), numericValue: 0 },
      },
    };
    const metrics = pageMetrics(perfect);
    expect(metrics).toEqual({ fcp: 812.4, lcp: 1062, cls: 0.00042, tbt: 0 });
    const rows = ["home", "home-zh"].map((name) => ({ name, scores: pageScores(perfect), metrics }));
    const table = formatTable([...rows, { name: "post-zh", scores: pageScores(report), metrics: pageMetrics(report) }]);
    expect(table).toHaveLength(5);
    expect(table[0]).toMatch(/^\| page +\| performance \| accessibility \| best practices \| SEO \| first \/ largest/);
    expect(table[2]).toMatch(/^\| home +\| +100 \| +100 \| +100 \| +100 \| +0\.8 s \/ 1\.1 s \| +0 \| +0 ms \|$/);
    expect(table[3]).toMatch(/^\| home-zh /);
    expect(table[4]).toMatch(/^\| post-zh +\| +83 \| +100 \| +96 \| +n\/a \| +n\/a \/ n\/a \| +n\/a \| +n\/a \|$/);
    expect(new Set(table.map((line) => line.length)).size).toBe(1);
  });
});
