import { describe, expect, it } from "vitest";
import { parseOptions, type Row, report } from "./scale.ts";

const row = (posts: number, dialect: string, page: string, requestsPerSec: number): Row => ({
  posts,
  dialect,
  cache: "off",
  page,
  path: `/${page}`,
  requestsPerSec,
  p50Ms: 4,
  p99Ms: 9,
  rowsPerRequest: dialect === "postgres" ? 120 : null,
  errors: 0,
});

describe("bench:scale", () => {
  it("reads sizes and refuses what it cannot run", () => {
    expect(parseOptions([])).toMatchObject({ sizes: [100, 10_000], sqlite: true, duration: 5, connections: 32 });
    expect(parseOptions(["--sizes", "100, 100000", "--database-url", "postgres://x/y"])).toMatchObject({
      sizes: [100, 100_000],
      adminUrl: "postgres://x/y",
    });
    expect(() => parseOptions(["--sizes", "100,100001"])).toThrow(/--sizes/);
    expect(() => parseOptions(["--sizes", "ten"])).toThrow(/--sizes/);
    expect(() => parseOptions(["--only-postgres"])).toThrow(/--database-url/);
  });

  it("reports each page's throughput against the smallest blog, deep pages against page 2, and the dialects", () => {
    const text = report([
      row(100, "sqlite", "list", 200),
      row(100, "sqlite", "deep", 200),
      row(100, "sqlite", "post", 250),
      row(10_000, "sqlite", "list", 180),
      row(10_000, "sqlite", "deep", 90),
      row(10_000, "sqlite", "post", 200),
      row(100, "postgres", "list", 100),
      row(100, "postgres", "deep", 100),
      row(100, "postgres", "post", 150),
      row(10_000, "postgres", "list", 100),
      row(10_000, "postgres", "deep", 100),
      row(10_000, "postgres", "post", 120),
    ]);
    expect(text).toContain("| 10000 | postgres | off | post | 120 | 4 | 9 | 120 |");
    expect(text).toContain("| sqlite | 10000 vs 100 | 90 % | 45 % | 80 % | 50 % |");
    expect(text).toContain("| postgres | 10000 vs 100 | 100 % | 100 % | 80 % | 100 % |");
    expect(text).toContain("- 10000 posts: 60 %");
    expect(text).toContain(
      "| page | dialect | 100 posts, cache off | 10,000 posts, cache off | 100, cache on | 10,000, cache on |",
    );
    expect(text).toContain("| deep | sqlite | 200 · 9 | 90 · 9 | – | – |");
    expect(text).toContain("| post | postgres | 150 · 9 · 120 | 120 · 9 · 120 | – | – |");
  });
});
