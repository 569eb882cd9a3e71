import type { Element, ElementContent, Root } from "hast";
import type { HighlighterCore, PatternScanner, RegexEngine, RegexEngineString } from "shiki/core";
import { visitElements } from "./hast-walk.server.ts";

/**
 * The two themes; their colours end up in CSS variables (see `.shiki` in app/app.css). Chosen
 * for contrast on the code blocks' own backgrounds (zinc-100, zinc-900): every colour these
 * themes give a token reaches 4.5:1 there (issue 49; `code-contrast.test.ts`). GitHub's
 * original light and dark themes did not (their orange 3.2:1, comments 4.4:1 and 3.7:1).
 */
export const CODE_THEMES = { light: "github-light-high-contrast", dark: "github-dark-default" } as const;

/**
 * The languages code blocks are highlighted in (with their aliases: ts, js, sh,
 * bash, py, rs, yml, md…). Anything else is shown as plain text.
 */
const LANGUAGES = [
  () => import("shiki/langs/typescript.mjs"),
  () => import("shiki/langs/javascript.mjs"),
  () => import("shiki/langs/tsx.mjs"),
  () => import("shiki/langs/json.mjs"),
  () => import("shiki/langs/shellscript.mjs"),
  () => import("shiki/langs/python.mjs"),
  () => import("shiki/langs/go.mjs"),
  () => import("shiki/langs/rust.mjs"),
  () => import("shiki/langs/sql.mjs"),
  () => import("shiki/langs/html.mjs"),
  () => import("shiki/langs/css.mjs"),
  () => import("shiki/langs/yaml.mjs"),
  () => import("shiki/langs/markdown.mjs"),
  () => import("shiki/langs/diff.mjs"),
];

/** Lines longer than this are left untokenized (a guard against pathological input). */
/**
 * How long one line may take to tokenize before Shiki gives up on the rest of it. Shiki's
 * 500 ms default was reached on a busy machine by the first line of a language (its
 * regexes compile then), which then left that block coloured differently from the same
 * code rendered a moment later (seen as a flaky demo-seed test under load).
 */
const LINE_TIME_LIMIT_MS = 3_000;
const MAX_TOKENIZED_LINE = 5000;

type ScanResult = ReturnType<PatternScanner["findNextMatchSync"]>;

/** Scanners that remembered searches since the last `forgetSearches` (each clears its own on it). */
const remembering = new Set<Map<string, Map<number, ScanResult>>>();

/**
 * A regex engine that remembers each scanner's searches until `forgetSearches`. With two themes,
 * Shiki tokenizes a block once per theme, and the grammar makes exactly the same searches both
 * times (the theme only colours the tokens): the second pass reads the first one's results
 * instead of running the regexes again. A search's result depends only on the scanner's patterns,
 * the line and the position (and the options, kept in the key), so a remembered one is the one
 * the engine would find; nothing is kept past a code block.
 */
export function rememberingEngine(inner: RegexEngine): RegexEngine {
  return {
    createString: (s) => inner.createString(s),
    createScanner(patterns) {
      const scanner = inner.createScanner(patterns);
      const lines = new Map<string, Map<number, ScanResult>>();
      return {
        findNextMatchSync(string: string | RegexEngineString, startPosition: number, options: number) {
          const content = typeof string === "string" ? string : string.content;
          // Positions fit in 2^40 (lines are cut at MAX_TOKENIZED_LINE); the options are a small bit mask.
          const key = startPosition * 64 + (options ?? 0);
          let seen = lines.get(content);
          const known = seen?.get(key);
          if (known !== undefined) return known;
          const found = scanner.findNextMatchSync(string, startPosition, options);
          if (!seen) {
            seen = new Map();
            lines.set(content, seen);
            remembering.add(lines);
          }
          seen.set(key, found);
          return found;
        },
        dispose: () => scanner.dispose?.(),
      };
    },
  };
}

/** Drops every search the remembering engine kept (after each code block). */
export function forgetSearches(): void {
  for (const lines of remembering) lines.clear();
  remembering.clear();
}

let loading: Promise<HighlighterCore> | undefined;

/**
 * The one highlighter of the process, created on first use: loading Shiki and its
 * grammars takes a few hundred milliseconds, which server start-up should not pay.
 * It uses the JavaScript regex engine (no WebAssembly).
 */
export function loadHighlighter(): Promise<HighlighterCore> {
  loading ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
    ]);
    return createHighlighterCore({
      themes: [import("shiki/themes/github-light-high-contrast.mjs"), import("shiki/themes/github-dark-default.mjs")],
      langs: LANGUAGES.map((load) => load()),
      // Skip a grammar rule the engine cannot express rather than fail the whole block.
      // The engine remembers searches within one code block (see rememberingEngine).
      engine: rememberingEngine(createJavaScriptRegexEngine({ forgiving: true })),
    });
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function textOf(node: ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/** `language-ts` on the `<code>` element (the fence's info string), lower-cased. */
function languageOf(code: Element): string | null {
  const classes = code.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const name of classes) {
    if (typeof name === "string" && name.startsWith("language-")) return name.slice("language-".length).toLowerCase();
  }
  return null;
}

/** True when the tree holds a code block (`<pre><code>`), i.e. the highlighter is needed. */
export function hasCodeBlock(tree: Root): boolean {
  let found = false;
  visitElements(tree, (element) => {
    if (element.tagName === "pre") found = true;
  });
  return found;
}

/** Highlighted blocks kept for their next use, per highlighter (most recently highlighted last). */
const keptBy = new WeakMap<HighlighterCore, Map<string, Element>>();
/** How many, and up to what length of code (a few MiB of nodes at most): a bilingual post's two versions usually share their code blocks. */
const KEPT_BLOCKS = 32;
const KEPT_MAX_CODE = 2_000;

/**
 * A code block highlighted (Shiki's `<pre>`), or null. The same code in the same language gives the
 * same block, so a short one highlighted a moment ago (the other language of the post being
 * rendered, a snippet repeated across posts) is copied rather than highlighted again.
 */
function highlightedBlock(highlighter: HighlighterCore, text: string, lang: string): Element | null {
  let kept = keptBy.get(highlighter);
  if (!kept) {
    kept = new Map();
    keptBy.set(highlighter, kept);
  }
  const key = `${lang}\u0000${text}`;
  const known = kept.get(key);
  if (known) return structuredClone(known);
  let highlighted: Root;
  try {
    highlighted = highlighter.codeToHast(text, {
      lang,
      themes: CODE_THEMES,
      defaultColor: false,
      tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
      tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
    });
  } finally {
    forgetSearches();
  }
  const pre = highlighted.children.find((c) => c.type === "element");
  if (!pre) return null;
  if (text.length <= KEPT_MAX_CODE) {
    if (kept.size >= KEPT_BLOCKS) {
      const oldest = kept.keys().next().value;
      if (oldest !== undefined) kept.delete(oldest);
    }
    kept.set(key, structuredClone(pre));
  }
  return pre;
}

/**
 * Replaces every `<pre><code>` block of an already sanitized tree with Shiki's
 * highlighted version. Shiki builds the new nodes from the code's text only and
 * adds nothing but classes and theme colours, so sanitizing before this step
 * loses none of its styles and lets no user markup through.
 */
export function highlightCodeBlocks(tree: Root, highlighter: HighlighterCore): void {
  const loaded = new Set(highlighter.getLoadedLanguages());
  const replace = (parent: Root | Element) => {
    parent.children = parent.children.map((child) => {
      if (child.type !== "element") return child;
      const code = child.tagName === "pre" ? child.children.find((c) => c.type === "element") : undefined;
      if (code?.type !== "element" || code.tagName !== "code") {
        replace(child);
        return child;
      }
      const wanted = languageOf(code);
      const lang = wanted && loaded.has(wanted) ? wanted : "text";
      // remark-rehype ends every block with a newline, which would make an empty last line.
      const text = textOf(code).replace(/\n$/, "");
      try {
        const pre = highlightedBlock(highlighter, text, lang);
        if (!pre) return child;
        if (lang !== "text") pre.properties.dataLanguage = lang;
        // The fence's own language (post-markup.server.ts labels the block with it).
        if (child.properties.dataFence !== undefined) pre.properties.dataFence = child.properties.dataFence;
        return pre;
      } catch {
        return child;
      }
    });
  };
  replace(tree);
}
