/**
 * The text and background colours the site pairs, by Tailwind palette name
 * (docs/design.md lists where each is used). `design-colours.test.ts` computes the
 * WCAG contrast of every pair from the installed Tailwind palette and requires AA
 * (4.5:1) for text; add a pair here when a new one appears in the markup.
 */
export interface ColourPair {
  text: string;
  background: string;
  use: string;
}

export const LIGHT_PAIRS: readonly ColourPair[] = [
  { text: "zinc-900", background: "white", use: "body text" },
  { text: "zinc-700", background: "white", use: "secondary text, blockquotes, labels" },
  { text: "zinc-600", background: "white", use: "meta lines, hints, captions" },
  { text: "zinc-600", background: "zinc-100", use: "code block language label" },
  { text: "zinc-800", background: "zinc-100", use: "inline code" },
  { text: "zinc-900", background: "zinc-200", use: "draft badge" },
  { text: "blue-700", background: "white", use: "links" },
  { text: "blue-800", background: "white", use: "admin links" },
  { text: "red-700", background: "white", use: "field errors" },
  { text: "white", background: "blue-700", use: "primary button" },
  { text: "white", background: "blue-800", use: "primary button, hover" },
  { text: "white", background: "red-700", use: "danger button" },
  { text: "white", background: "zinc-900", use: "toasts, dark chips" },
  { text: "red-900", background: "red-100", use: "trashed badge" },
  { text: "amber-900", background: "amber-100", use: "scheduled badge" },
  { text: "amber-950", background: "amber-50", use: "warnings" },
  { text: "zinc-700", background: "zinc-50", use: "admin sidebar entries" },
  { text: "zinc-600", background: "zinc-50", use: "admin sidebar group names" },
  { text: "zinc-900", background: "zinc-100", use: "admin sidebar, current page and hover" },
  { text: "zinc-950", background: "amber-500", use: "admin sidebar, comments waiting" },
  { text: "blue-800", background: "zinc-50", use: "admin dashboard card labels, hover" },
];

export const DARK_PAIRS: readonly ColourPair[] = [
  { text: "zinc-100", background: "zinc-950", use: "body text" },
  { text: "zinc-300", background: "zinc-950", use: "secondary text, blockquotes, labels" },
  { text: "zinc-400", background: "zinc-950", use: "meta lines, hints, captions" },
  { text: "zinc-400", background: "zinc-900", use: "code block language label, hints in cards" },
  { text: "zinc-200", background: "zinc-800", use: "inline code" },
  { text: "zinc-100", background: "zinc-800", use: "draft badge" },
  { text: "blue-400", background: "zinc-950", use: "links" },
  { text: "blue-300", background: "zinc-950", use: "admin links" },
  { text: "red-400", background: "zinc-950", use: "field errors" },
  { text: "white", background: "blue-600", use: "primary button" },
  // Not blue-500: white on it is 3.8:1, so the hover goes darker, not lighter.
  { text: "white", background: "blue-700", use: "primary button, hover" },
  { text: "red-100", background: "red-950", use: "trashed badge" },
  { text: "amber-100", background: "amber-900", use: "scheduled badge" },
  { text: "zinc-300", background: "zinc-900", use: "admin sidebar entries" },
  { text: "zinc-100", background: "zinc-800", use: "admin sidebar, current page and hover" },
  { text: "blue-300", background: "zinc-900", use: "admin dashboard card labels, hover" },
];
