// The pure half of `npm run lighthouse`: the pages audited, scores and metrics out
// of a Lighthouse result, the audits that cost points, and the lines printed.
import { parseArgs } from "node:util";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Issue 24's targets for mobile: 100 in every category (issue #9 asked 95 for performance). */
export const TARGETS: Record<Category, number> = {
  performance: 100,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};

/** The part of a Lighthouse result (LH.Result) read here. */
export interface LighthouseReport {
  categories: Record<string, { title: string; score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      displayValue?: string;
      numericValue?: number;
    }
  >;
  runtimeError?: { code: string; message: string };
  runWarnings?: string[];
}

export interface FailingAudit {
  id: string;
  title: string;
  /** 0–100. */
  score: number;
  /** How much the audit counts in its category's score (0: shown, not scored). */
  weight: number;
  displayValue?: string;
}

export interface CategoryResult {
  /** 0–100, or null when Lighthouse could not score it. */
  score: number | null;
  target: number;
  /** Audits of the category that did not pass, heaviest first (listed when the score is below target). */
  failing: FailingAudit[];
}

export type PageScores = Record<Category, CategoryResult>;

const SCORED_MODES = new Set(["binary", "numeric", "metricSavings"]);

/** The audits of `category` that scored below 1, heaviest first, then by score. */
export function failingAudits(report: LighthouseReport, category: Category): FailingAudit[] {
  const refs = report.categories[category]?.auditRefs ?? [];
  const failing: FailingAudit[] = [];
  for (const ref of refs) {
    const audit = report.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1 || !SCORED_MODES.has(audit.scoreDisplayMode)) continue;
    failing.push({
      id: audit.id,
      title: audit.title,
      score: Math.round(audit.score * 100),
      weight: ref.weight,
      ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
    });
  }
  return failing.sort((a, b) => b.weight - a.weight || a.score - b.score || a.id.localeCompare(b.id));
}

/** Scores out of 100 per category, with the failing audits of those below target. */
export function pageScores(report: LighthouseReport): PageScores {
  const out = {} as PageScores;
  for (const category of CATEGORIES) {
    const raw = report.categories[category]?.score;
    const score = raw === null || raw === undefined ? null : Math.round(raw * 100);
    const target = TARGETS[category];
    out[category] = {
      score,
      target,
      failing: score === null || score < target ? failingAudits(report, category) : [],
    };
  }
  return out;
}

export function belowTarget(scores: PageScores): Category[] {
  return CATEGORIES.filter((c) => scores[c].score === null || (scores[c].score ?? 0) < scores[c].target);
}

/** What `npm run lighthouse` prints for one page. */
export function formatPage(name: string, url: string, scores: PageScores): string[] {
  const cell = (c: Category) => `${c} ${scores[c].score ?? "n/a"}`;
  const missed = belowTarget(scores);
  const lines = [
    `${name} (${url}): ${CATEGORIES.map(cell).join(" · ")}${missed.length ? "  BELOW TARGET" : "  all on target"}`,
  ];
  for (const category of missed) {
    lines.push(
      `  ${category} ${scores[category].score ?? "n/a"} < ${scores[category].target}; audits that cost points:`,
    );
    for (const audit of scores[category].failing) {
      const value = audit.displayValue ? ` (${audit.displayValue})` : "";
      lines.push(`    - ${audit.id}: ${audit.title}${value}, score ${audit.score}, weight ${audit.weight}`);
    }
  }
  return lines;
}

/** The pages audited, in order: home and post in English (unprefixed, as before) and Chinese. */
export const PAGE_NAMES = ["home", "post", "home-zh", "post-zh"] as const;
export type PageName = (typeof PAGE_NAMES)[number];

export interface AuditedPage {
  name: PageName;
  locale: "en" | "zh";
  /** Request path. */
  path: string;
}

export interface LighthouseOptions {
  /** Which of PAGE_NAMES to audit, in that order. */
  pages: PageName[];
}

export const USAGE = `npm run lighthouse [-- options]
  --only LIST   audit only these pages, comma-separated: home, post, home-zh, post-zh,
                or a language for both its pages: en, zh (default: all four)`;

/** `--only home-zh,post` or `--only zh`; every page when absent. */
export function parseOptions(argv: string[]): LighthouseOptions {
  const { values } = parseArgs({
    args: argv,
    options: { only: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values.only === undefined) return { pages: [...PAGE_NAMES] };
  const wanted = new Set<PageName>();
  for (const token of values.only.split(",").map((t) => t.trim())) {
    if (token === "en") wanted.add("home").add("post");
    else if (token === "zh") wanted.add("home-zh").add("post-zh");
    else if ((PAGE_NAMES as readonly string[]).includes(token)) wanted.add(token as PageName);
    else throw new Error(`--only takes ${PAGE_NAMES.join(", ")}, en or zh, not "${token}"`);
  }
  return { pages: PAGE_NAMES.filter((name) => wanted.has(name)) };
}

/**
 * The request paths of the pages to audit. English keeps the unprefixed paths (an
 * English browser's view, as measured before the Chinese pages were added); Chinese
 * goes through the /zh prefix, which wins over Accept-Language. A post in both
 * languages may differ: each locale's newest post with a translation in it.
 */
export function auditedPages(
  picked: { home: string; post: string; postZh: string },
  names: readonly PageName[] = PAGE_NAMES,
): AuditedPage[] {
  const all: Record<PageName, AuditedPage> = {
    home: { name: "home", locale: "en", path: picked.home },
    post: { name: "post", locale: "en", path: picked.post },
    "home-zh": { name: "home-zh", locale: "zh", path: zhPath(picked.home) },
    "post-zh": { name: "post-zh", locale: "zh", path: zhPath(picked.postZh) },
  };
  return PAGE_NAMES.filter((name) => names.includes(name)).map((name) => all[name]);
}

function zhPath(pagePath: string): string {
  return pagePath === "/" ? "/zh" : `/zh${pagePath}`;
}

/** The lab metrics shown next to the scores (milliseconds, CLS unitless); null when missing. */
export interface PageMetrics {
  fcp: number | null;
  lcp: number | null;
  cls: number | null;
  tbt: number | null;
}

export function pageMetrics(report: LighthouseReport): PageMetrics {
  const value = (id: string) => report.audits[id]?.numericValue ?? null;
  return {
    fcp: value("first-contentful-paint"),
    lcp: value("largest-contentful-paint"),
    cls: value("cumulative-layout-shift"),
    tbt: value("total-blocking-time"),
  };
}

const seconds = (ms: number | null) => (ms === null ? "n/a" : `${(ms / 1000).toFixed(1)} s`);

/** The Markdown table printed at the end (docs/performance.md's columns), one row per page. */
export function formatTable(rows: Array<{ name: string; scores: PageScores; metrics: PageMetrics }>): string[] {
  const header = [
    "page",
    "performance",
    "accessibility",
    "best practices",
    "SEO",
    "first / largest contentful paint",
    "CLS",
    "total blocking time",
  ];
  const body = rows.map(({ name, scores, metrics }) => [
    name,
    ...CATEGORIES.map((c) => String(scores[c].score ?? "n/a")),
    `${seconds(metrics.fcp)} / ${seconds(metrics.lcp)}`,
    metrics.cls === null ? "n/a" : String(Math.round(metrics.cls * 1000) / 1000),
    metrics.tbt === null ? "n/a" : `${Math.round(metrics.tbt)} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (i === 0 ? "-".repeat(w) : `${"-".repeat(w - 1)}:`)).join(" | ")} |`;
  return [line(header), rule, ...body.map(line)];
}
