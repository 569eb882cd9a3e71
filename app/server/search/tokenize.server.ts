import { createRequire } from "node:module";
import type { Jieba } from "@node-rs/jieba";
import { MAX_QUERY_LENGTH } from "../../lib/search.ts";

// Search text is cut into tokens here, the same way when a post is indexed and
// when a query is read, so both databases only ever compare whole tokens:
//   - text is NFKC-normalised and lower-cased;
//   - runs of Chinese characters are segmented with jieba: indexing uses its
//     search mode (测试中文搜索 → 测试, 中文, 搜索, 中文搜索…), so a short word
//     inside a longer one is found, and a query uses the precise mode;
//   - anything else is split into words of letters, digits and marks; every
//     other character (punctuation, `%`, `_`, quotes, `*`…) separates words and
//     is never searchable, so it can never act as query syntax either.
// No stemming: "test" does not find "testing".

/** A Chinese run, or a word of other letters, digits and combining marks. */
const TOKEN_RUN = /\p{Script=Han}+|[[\p{L}\p{N}\p{M}]--\p{Script=Han}]+/gv;
const HAN = /^\p{Script=Han}/v;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/v;

/** Longer "words" (hashes, base64, runaway strings) are left out of the index and of queries. */
export const MAX_TOKEN_LENGTH = 64;
export { MAX_QUERY_LENGTH };
/** Distinct tokens of a query that are searched for; the rest are ignored. */
export const MAX_QUERY_TOKENS = 12;

let jieba: Jieba | undefined;
const require = createRequire(import.meta.url);

/**
 * The segmenter, loaded on the first Chinese text (its dictionary takes ~0.2 s and
 * ~50 MiB to load): a process that only ever sees other scripts never loads it. The
 * dictionary file's bytes are dropped once jieba has built its own copy.
 */
function segmenter(): Jieba {
  if (!jieba) {
    const { Jieba: JiebaClass } = require("@node-rs/jieba") as typeof import("@node-rs/jieba");
    const dictModule = require.resolve("@node-rs/jieba/dict.js");
    const { dict } = require(dictModule) as typeof import("@node-rs/jieba/dict.js");
    jieba = JiebaClass.withDict(dict);
    delete require.cache[dictModule];
  }
  return jieba;
}

/**
 * Chinese text cut into words, every character kept (spaces, punctuation and Latin words come
 * back as pieces of their own): where a line of a title may break (the social cards).
 */
export function chineseWords(text: string): string[] {
  return segmenter().cut(text, true);
}

export function normalize(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

export function isHanToken(token: string): boolean {
  return HAN.test(token);
}

function tokens(text: string, mode: "index" | "query"): string[] {
  const out: string[] = [];
  for (const [run] of normalize(text).matchAll(TOKEN_RUN)) {
    if (!isHanToken(run)) {
      // A run of combining marks alone is no word (and would be an empty phrase to FTS5).
      if (run.length <= MAX_TOKEN_LENGTH && LETTER_OR_DIGIT.test(run)) out.push(run);
      continue;
    }
    const words = mode === "index" ? segmenter().cutForSearch(run, true) : segmenter().cut(run, true);
    for (const word of words) {
      // jieba only ever returns pieces of the run, but keep the guarantee local.
      if (word.length > 0 && word.length <= MAX_TOKEN_LENGTH && isHanToken(word)) out.push(word);
    }
  }
  return out;
}

/** Tokens of a text to index, in order, repeats kept (they count for ranking). */
export function indexTokens(text: string): string[] {
  return tokens(text, "index");
}

/** The text as stored in the search table: its index tokens separated by single spaces. */
export function segmentForIndex(text: string): string {
  return indexTokens(text).join(" ");
}

/**
 * The distinct tokens of a search query, at most MAX_QUERY_TOKENS, read from its
 * first MAX_QUERY_LENGTH characters. Empty when nothing searchable is left.
 */
export function queryTokens(query: string): string[] {
  const unique = new Set(tokens(query.slice(0, MAX_QUERY_LENGTH), "query"));
  return [...unique].slice(0, MAX_QUERY_TOKENS);
}
