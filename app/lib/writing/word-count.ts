// How long a version of a post is, as a writer counts it: words for English, characters for
// Chinese (each Han, Hiragana or Katakana character is one; Latin words among them are words).
// The editor's bar shows it for the version being edited (issue 47).

/** Characters counted one each: the scripts written without spaces between words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/** A word: letters and digits, joined by an apostrophe or hyphen ("don't", "well-known"). */
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** English-like words per minute and Chinese characters per minute (the renderer's speeds). */
export const WORDS_PER_MINUTE = 230;
export const CJK_CHARS_PER_MINUTE = 400;

export interface TextCount {
  /** Words outside the CJK scripts. */
  words: number;
  /** CJK characters. */
  cjk: number;
}

/**
 * What of the Markdown a reader reads: image syntax, link targets, bare addresses, HTML tags
 * and the markers of headings, lists and emphasis are not counted.
 */
export function readableText(markdown: string): string {
  return (
    markdown
      // Images: ![alt](url "title") and reference images count nothing.
      .replace(/!\[[^\]\n]*\]\([^)\n]*\)/g, " ")
      .replace(/!\[[^\]\n]*\]\[[^\]\n]*\]/g, " ")
      // Links keep their text: [text](url) -> text.
      .replace(/\]\([^)\n]*\)/g, "] ")
      // Reference definitions: [id]: url
      .replace(/^\s{0,3}\[[^\]\n]+\]:\s*\S+.*$/gm, " ")
      .replace(/<(?:https?:\/\/|mailto:)[^>\s]*>/gi, " ")
      .replace(/\bhttps?:\/\/\S+/gi, " ")
      .replace(/<\/?[a-z][^>\n]*>/gi, " ")
  );
}

/** Counts words and CJK characters in Markdown text. */
export function countText(markdown: string): TextCount {
  const text = readableText(markdown);
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text.replace(CJK, " ").match(WORD)?.length ?? 0;
  return { words, cjk };
}

/**
 * The one number the bar shows: for Chinese, characters plus the Latin words among them;
 * for English, words (a CJK character, if any, counts as one).
 */
export function lengthOf(count: TextCount): number {
  return count.words + count.cjk;
}

/** Reading time in whole minutes (at least 1 for any text, 0 for none). */
export function readingMinutesOf(count: TextCount): number {
  if (count.words + count.cjk === 0) return 0;
  return Math.max(1, Math.round(count.words / WORDS_PER_MINUTE + count.cjk / CJK_CHARS_PER_MINUTE));
}
