import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/**
 * The axe rules whose outcome a colour scheme can change: text contrast, and links told
 * apart from the text around them by colour alone. Every other rule reads the document's
 * structure (names, roles, landmarks, headings, language), which is the same in both
 * schemes, so a page checked in full in the light scheme is checked for these in the dark
 * one: a full run there cost as much again and could only find the same structure.
 */
export const COLOUR_RULES = ["color-contrast", "link-in-text-block"] as const;

export interface AxeScope {
  /** Only this part of the page (a CSS selector). */
  include?: string;
  /** Leave out this part (a CSS selector), e.g. a header checked elsewhere. */
  exclude?: string;
  /** "colours": only the rules a colour scheme can change (see COLOUR_RULES). */
  rules?: "all" | "colours";
}

/** Axe's findings on the page, one line each (rule id and the elements it found). */
export async function axeFindings(page: Page, scope: AxeScope = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page });
  if (scope.include) builder = builder.include(scope.include);
  if (scope.exclude) builder = builder.exclude(scope.exclude);
  if (scope.rules === "colours") builder = builder.withRules([...COLOUR_RULES]);
  const result = await builder.analyze();
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The rules to run in a colour scheme: all of them in light, the colour ones in dark. */
export const rulesFor = (scheme: "light" | "dark"): "all" | "colours" => (scheme === "dark" ? "colours" : "all");
