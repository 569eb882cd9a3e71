import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import en from "../../../locales/en/adminLinks.json" with { type: "json" };
import zh from "../../../locales/zh/adminLinks.json" with { type: "json" };
import { AD_PLACEMENTS } from "./ad.ts";

const ROUTES = path.resolve(import.meta.dirname, "../../routes");

/** Every placement a reader page asks for: `adFor(context, request, "…")` in the routes outside /admin. */
function renderedPlacements(): Set<string> {
  const found = new Set<string>();
  for (const file of readdirSync(ROUTES, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".tsx") || file.startsWith("admin")) continue;
    const source = readFileSync(path.join(ROUTES, file), "utf8");
    for (const m of source.matchAll(/adFor\(\s*context,\s*request,\s*"(\w+)"\s*\)/g)) found.add(m[1] ?? "");
  }
  return found;
}

describe("ad placements", () => {
  it("offers exactly the placements some reader page shows", () => {
    expect(new Set(AD_PLACEMENTS)).toEqual(renderedPlacements());
  });

  it("names each placement after where readers see it, in both languages (no sidebar: the layout has none)", () => {
    for (const placement of AD_PLACEMENTS) {
      expect(en.placements[placement]).not.toMatch(/^$|sidebar/i);
      expect(zh.placements[placement]).not.toMatch(/^$|侧边栏/);
    }
    expect(en.ads.fields.placementHint).not.toMatch(/sidebar/i);
    expect(zh.ads.fields.placementHint).not.toContain("侧边栏");
  });
});
