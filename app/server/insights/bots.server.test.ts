import { describe, expect, it } from "vitest";
import { botAnswersKept, isBotAgent, MAX_BOT_ANSWERS } from "./bots.server.ts";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";

describe("isBotAgent", () => {
  it("tells readers' browsers from crawlers, and counts no User-Agent as a bot", () => {
    expect(isBotAgent(CHROME)).toBe(false);
    expect(isBotAgent(`  ${CHROME}  `)).toBe(false);
    expect(isBotAgent("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")).toBe(true);
    expect(isBotAgent("curl/8.5.0")).toBe(true);
    expect(isBotAgent("")).toBe(true);
    expect(isBotAgent("   ")).toBe(true);
    expect(isBotAgent(null)).toBe(true);
    expect(isBotAgent(undefined)).toBe(true);
  });

  it("gives the same answer from memory, and keeps a bounded number of answers", () => {
    for (let i = 0; i < MAX_BOT_ANSWERS + 50; i++) isBotAgent(`${CHROME} run/${i}`);
    expect(botAnswersKept()).toBeLessThanOrEqual(MAX_BOT_ANSWERS);
    expect(isBotAgent(CHROME)).toBe(false);
    expect(isBotAgent(CHROME)).toBe(false);
    expect(isBotAgent("Googlebot/2.1")).toBe(true);
    expect(isBotAgent("Googlebot/2.1")).toBe(true);
    // The last answer kept for the next call never leaks into another agent's.
    expect(isBotAgent(CHROME)).toBe(false);
    expect(isBotAgent(null)).toBe(true);
    expect(isBotAgent(CHROME)).toBe(false);
    expect(isBotAgent("")).toBe(true);
  });
});
