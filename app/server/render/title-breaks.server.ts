import type { Locale } from "../../lib/i18n/locale.ts";

const SEGMENTER = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * A Chinese title as runs of text that may be broken between, and only there: the
 * heading shows a `<wbr>` between two runs and keeps each run whole (`word-break:
 * keep-all`), so a balanced heading never breaks inside a word. A new run starts where
 * one word follows another directly; punctuation and spaces stay with the word before
 * them (a line never starts with a closing mark), and a space is a break point anyway.
 * Computed on the server, for the loader: Node's and the browser's ICU can segment
 * differently, and the markup must be the same on both sides for hydration. Null for
 * other languages, whose words are already kept whole.
 */
export function titleRuns(title: string, locale: Locale): string[] | null {
  if (locale !== "zh") return null;
  const runs: string[] = [];
  let afterWord = false;
  for (const { segment, isWordLike = false } of SEGMENTER.segment(title)) {
    const last = runs.length - 1;
    if (last < 0 || (afterWord && isWordLike)) runs.push(segment);
    else runs[last] += segment;
    afterWord = isWordLike;
  }
  return runs;
}
