import type { Element, Root } from "hast";
import { createHighlighterCore, type RegexEngine } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import { describe, expect, it } from "vitest";
import {
  CODE_THEMES,
  forgetSearches,
  highlightCodeBlocks,
  loadHighlighter,
  rememberingEngine,
} from "./highlight.server.ts";

/** The JavaScript engine, counting the searches its scanners really run. */
function countingEngine(): { engine: RegexEngine; searches: () => number } {
  const inner = createJavaScriptRegexEngine({ forgiving: true });
  let searches = 0;
  return {
    engine: {
      createString: (s) => inner.createString(s),
      createScanner(patterns) {
        const scanner = inner.createScanner(patterns);
        return {
          findNextMatchSync(string, start, options) {
            searches += 1;
            return scanner.findNextMatchSync(string, start, options);
          },
        };
      },
    },
    searches: () => searches,
  };
}

const langs = () => [
  import("shiki/langs/typescript.mjs"),
  import("shiki/langs/shellscript.mjs"),
  import("shiki/langs/html.mjs"),
  import("shiki/langs/python.mjs"),
];
const themes = () => [
  import("shiki/themes/github-light-high-contrast.mjs"),
  import("shiki/themes/github-dark-default.mjs"),
];

// Blocks that exercise what a remembered search could get wrong: several matches on one line,
// the same line in different states (inside a template string or not), back-references (a
// heredoc's end), embedded languages, and lines repeated within a block.
const BLOCKS: Array<[string, string]> = [
  ["typescript", "const cups = 3;\nfor (let i = 0; i < cups; i++) pour(i);\nfor (let i = 0; i < cups; i++) pour(i);"],
  [
    "typescript",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source, as text
    "const s = `a ${`b ${c}`} d`;\nconst t = `\nconst cups = 3;\n`;\nconst cups = 3;\nclass A<T> { re = /x{2}/g; }",
  ],
  ["shellscript", 'cat <<END\n$HOME "q"\nEND\necho "$HOME" <<-EOF\nx\nEOF'],
  ["html", "<div class=a><script>const a = `<div>`;</script><style>a { color: red }</style></div>"],
  ["python", "def f(x):\n    return f'{x!r}' + '''doc\n    more'''\n"],
];

describe("rememberingEngine", () => {
  it("highlights exactly as the plain engine does, each search run once per block", async () => {
    const plainCount = countingEngine();
    const rememberedCount = countingEngine();
    const plain = await createHighlighterCore({ themes: themes(), langs: langs(), engine: plainCount.engine });
    const remembered = await createHighlighterCore({
      themes: themes(),
      langs: langs(),
      engine: rememberingEngine(rememberedCount.engine),
    });
    try {
      for (const [lang, code] of BLOCKS) {
        // No time limit: a line cut short while a grammar compiles (a busy machine) would differ by itself.
        const options = { lang, themes: CODE_THEMES, defaultColor: false as const, tokenizeTimeLimit: 0 };
        const before = { plain: plainCount.searches(), remembered: rememberedCount.searches() };
        const expected = plain.codeToHast(code, options);
        let got: ReturnType<typeof remembered.codeToHast>;
        try {
          got = remembered.codeToHast(code, options);
        } finally {
          forgetSearches();
        }
        expect(got, `${lang}: ${code}`).toEqual(expected);
        // Two themes: the plain engine searched twice as often (each pass searches the same).
        const plainSearches = plainCount.searches() - before.plain;
        const rememberedSearches = rememberedCount.searches() - before.remembered;
        expect(rememberedSearches).toBeGreaterThan(0);
        expect(rememberedSearches).toBeLessThanOrEqual(plainSearches / 2);
        // And a block highlighted after forgetting is searched afresh, with the same result.
        expect(remembered.codeToHast(code, options)).toEqual(expected);
        forgetSearches();
      }
    } finally {
      plain.dispose();
      remembered.dispose();
    }
  });
});

describe("highlightCodeBlocks", () => {
  const block = (code: string, fence?: string): Element => ({
    type: "element",
    tagName: "pre",
    properties: fence === undefined ? {} : { dataFence: fence },
    children: [
      {
        type: "element",
        tagName: "code",
        properties: { className: ["language-ts"] },
        children: [{ type: "text", value: `${code}\n` }],
      },
    ],
  });

  it("highlights the same code once and hands each block its own copy", async () => {
    const highlighter = await loadHighlighter();
    const code = `const kept = ${Date.now()};\nexport default kept;`;
    const tree: Root = { type: "root", children: [block(code, "ts"), block(code), block(`${code} // other`)] };
    const calls: string[] = [];
    const original = highlighter.codeToHast;
    highlighter.codeToHast = (text, options) => {
      calls.push(text);
      return original.call(highlighter, text, options);
    };
    try {
      highlightCodeBlocks(tree, highlighter);
      const later: Root = { type: "root", children: [block(code)] };
      highlightCodeBlocks(later, highlighter);
      expect(calls).toEqual([code, `${code} // other`]);
      const [first, second] = tree.children as Element[];
      expect(first?.properties.dataFence).toBe("ts");
      // The fence of the first block is not carried over to the second.
      expect(second?.properties.dataFence).toBeUndefined();
      expect(second?.properties.dataLanguage).toBe("ts");
      const { dataFence: _fence, ...firstProperties } = first?.properties ?? {};
      expect(second).toEqual({ ...first, properties: firstProperties });
      expect(later.children[0]).toEqual(second);
      // Copies: changing one block changes no other.
      if (first) first.children = [];
      expect(second?.children.length).toBeGreaterThan(0);
      expect(later.children[0]).toEqual(second);
    } finally {
      highlighter.codeToHast = original;
    }
  });
});
