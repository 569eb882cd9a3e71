import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { IMPORT_HEAP_GROWING_PERCENT, tuneImportHeap } from "./import-command.ts";

// The import commands keep V8's old generation close to what is live (decision 020, "At scale").
describe("tuneImportHeap", () => {
  it("sets V8's heap growing factor when the user did not", () => {
    const set: string[] = [];
    const flag = tuneImportHeap((f) => set.push(f), { execArgv: [], nodeOptions: undefined });
    expect(flag).toBe(`--heap-growing-percent=${IMPORT_HEAP_GROWING_PERCENT}`);
    expect(set).toEqual([flag]);
  });

  it("leaves a factor given on node's command line or in NODE_OPTIONS alone", () => {
    const set: string[] = [];
    const given = [
      { execArgv: ["--heap-growing-percent=50"], nodeOptions: undefined },
      { execArgv: ["--heap_growing_percent", "50"], nodeOptions: "" },
      { execArgv: [], nodeOptions: "--max-old-space-size=512 --heap-growing-percent=10" },
    ];
    for (const g of given) expect(tuneImportHeap((f) => set.push(f), g)).toBeNull();
    expect(set).toEqual([]);
  });

  it("still sets it beside other V8 options", () => {
    const set: string[] = [];
    tuneImportHeap((f) => set.push(f), { execArgv: ["--max-old-space-size=512"], nodeOptions: "--inspect" });
    expect(set).toHaveLength(1);
  });

  it("names a flag this node's V8 knows (an unknown one would only print a warning)", () => {
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
    expect(options).toMatch(/^\s*--heap-growing-percent\b/m);
  });
});
