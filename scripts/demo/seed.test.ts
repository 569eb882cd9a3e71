import { describe, expect, it } from "vitest";
import type { Locale } from "../../app/server/db/schema.server.ts";
import { renderPost } from "../../app/server/render/post-render.server.ts";
import { DEMO_SNIPPETS, DEMO_TABLES, DEMO_TOPICS, type DemoTopic } from "./content.ts";
import { DEMO_SUBJECTS, LONGFORM_PER_POST, LONGFORM_SECTIONS } from "./longform.ts";
import { blockRenderer, demoMarkdownBlocks, type Layout, pickLongform, prng } from "./seed.ts";

const LOCALES: Locale[] = ["en", "zh"];

/** One language version's whole Markdown: its blocks joined, as a post holds it. */
function demoMarkdown(topic: DemoTopic, locale: Locale, layout: Layout): string {
  return demoMarkdownBlocks(topic, locale, layout).join("\n");
}

function layoutFor(n: number): Layout {
  return {
    snippet: DEMO_SNIPPETS[n % DEMO_SNIPPETS.length] as Layout["snippet"],
    table: DEMO_TABLES[n % DEMO_TABLES.length] as Layout["table"],
    reversed: n % 2 === 1,
    withQuote: n % 3 !== 0,
    longform: pickLongform(prng(n)),
  };
}

describe("demo posts", () => {
  it("has a subject for every topic, and no placeholder left in any post", () => {
    for (const topic of DEMO_TOPICS) {
      expect(DEMO_SUBJECTS[topic.key], topic.key).toBeDefined();
      for (const locale of LOCALES) expect(demoMarkdown(topic, locale, layoutFor(1))).not.toContain("{subject}");
    }
  });

  it("picks distinct long-form sections, the same ones for the same seed", () => {
    const picked = pickLongform(prng(42));
    expect(picked).toHaveLength(LONGFORM_PER_POST);
    expect(new Set(picked).size).toBe(LONGFORM_PER_POST);
    expect(pickLongform(prng(42))).toEqual(picked);
    expect(picked.every((s) => LONGFORM_SECTIONS.includes(s))).toBe(true);
  });

  it("are about 1,500 words long in English, and as long in Chinese", () => {
    for (const [n, topic] of DEMO_TOPICS.entries()) {
      const en = demoMarkdown(topic, "en", layoutFor(n));
      const words = en.match(/[A-Za-z]+/g)?.length ?? 0;
      expect(words, topic.key).toBeGreaterThan(1_350);
      expect(words, topic.key).toBeLessThan(1_800);
      const zh = demoMarkdown(topic, "zh", layoutFor(n));
      const hanzi = zh.match(/\p{Script=Han}/gu)?.length ?? 0;
      expect(hanzi, topic.key).toBeGreaterThan(2_000);
    }
  });

  it("render block by block exactly as the whole Markdown renders", async () => {
    const render = blockRenderer();
    for (const [n, topic] of DEMO_TOPICS.entries()) {
      for (const locale of LOCALES) {
        for (const variant of [n, n + 1]) {
          const blocks = demoMarkdownBlocks(topic, locale, layoutFor(variant));
          const whole = await renderPost(blocks.join("\n"), locale);
          expect(await render(blocks, locale), `${topic.key} ${locale} ${variant}`).toEqual(whole);
        }
      }
    }
  });
});
