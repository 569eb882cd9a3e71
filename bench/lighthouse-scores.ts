// The pure half of `npm run lighthouse`: scores out of a Lighthouse result, the
// audits that cost points, and the lines printed.

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Issue #9's targets for mobile: 95 / 100 / 100 / 100. */
export const TARGETS: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};

/** The part of a Lighthouse result (LH.Result) read here. */
export interface LighthouseReport {
  categories: Record<string, { title: string; score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<
    string,
    { id: string; title: string; score: number | null; scoreDisplayMode: string; displayValue?: string }
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
