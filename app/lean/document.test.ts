import { describe, expect, it } from "vitest";
import { routePolicy } from "../lib/route-policy.ts";
import { isLeanDocument, SPECULATION_RULES } from "./document.ts";

describe("the lean document switch", () => {
  const reading = [undefined, routePolicy({ cache: "public", js: "lean" })];
  const app = [undefined, routePolicy({ cache: "none" })];

  it("sends a reading page lean to an anonymous reader, on the server only", () => {
    expect(isLeanDocument(reading, false, true)).toBe(true);
    // A signed-in user gets the app; the browser never renders a lean page (it never hydrates one).
    expect(isLeanDocument(reading, true, true)).toBe(false);
    expect(isLeanDocument(reading, false, false)).toBe(false);
  });

  it("keeps every other page the app, and a layout's choice can be overridden by its page", () => {
    expect(isLeanDocument(app, false, true)).toBe(false);
    expect(isLeanDocument([], false, true)).toBe(false);
    const layoutLean = [routePolicy({ cache: "public", js: "lean" }), routePolicy({ js: "app" })];
    expect(isLeanDocument(layoutLean, false, true)).toBe(false);
  });

  it("never speculates on links that count, sign or change something, and prerenders post pages", () => {
    const rules = JSON.parse(SPECULATION_RULES) as {
      prefetch: { where: { and: [unknown, { not: { href_matches: string[] } }] }; eagerness: string }[];
      prerender: { where: { href_matches: string[] }; eagerness: string }[];
    };
    const never = rules.prefetch[0]?.where.and[1].not.href_matches ?? [];
    for (const path of ["/ads/*", "/logout", "/locale", "/api/*"]) expect(never).toContain(path);
    expect(rules.prefetch[0]?.eagerness).toBe("moderate");
    expect(rules.prerender[0]?.where.href_matches).toContain("/posts/detail/*");
    expect(rules.prerender[0]?.eagerness).toBe("moderate");
  });
});
