import type { Element, ElementContent, Root } from "hast";
import type { HighlighterCore } from "shiki/core";
import { visitElements } from "./markdown.server.ts";

/** The two themes; their colours end up in CSS variables (see `.shiki` in app/app.css). */
export const CODE_THEMES = { light: "github-light", dark: "github-dark" } as const;

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
      themes: [import("shiki/themes/github-light.mjs"), import("shiki/themes/github-dark.mjs")],
      langs: LANGUAGES.map((load) => load()),
      // Skip a grammar rule the engine cannot express rather than fail the whole block.
      engine: createJavaScriptRegexEngine({ forgiving: true }),
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
        const highlighted = highlighter.codeToHast(text, {
          lang,
          themes: CODE_THEMES,
          defaultColor: false,
          tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
          tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
        });
        const pre = highlighted.children.find((c) => c.type === "element");
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
