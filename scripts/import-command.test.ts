import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { IMPORT_COMMANDS, IMPORT_HEAP_GROWING_PERCENT, parseOptions, tuneImportHeap } from "./import-command.ts";

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

// One parser for the three commands: each takes the flags its row in IMPORT_COMMANDS names.
describe("parseOptions", () => {
  const parse = (name: keyof typeof IMPORT_COMMANDS, args: string[]) => parseOptions(args, IMPORT_COMMANDS[name]);

  it("reads a command's source and the flags it takes", () => {
    expect(
      parse("import:markdown", ["blog", "--permalink", "/:year/:slug/", "--chunk", "20", "--dry-run"]),
    ).toMatchObject({ source: "blog", permalink: "/:year/:slug/", chunk: 20, dryRun: true });
    expect(parse("import:markdown", ["blog", "--pages-folder", "content/pages"])).toMatchObject({
      pagesFolder: "content/pages",
    });
    expect(
      parse("import:ghost", ["export.json", "--members", "m.csv", "--lang", "zh", "--author", "a@b.example"]),
    ).toMatchObject({
      source: "export.json",
      members: "m.csv",
      lang: "zh",
      author: "a@b.example",
    });
    expect(parse("import:wordpress", ["export.xml", "--uploads", "uploads.zip"])).toMatchObject({
      source: "export.xml",
      images: "uploads.zip",
    });
  });

  it("refuses what the command's usage does not say", () => {
    const refused: Array<[keyof typeof IMPORT_COMMANDS, string[]]> = [
      ["import:markdown", []],
      ["import:markdown", ["blog", "other"]],
      ["import:markdown", ["blog", "--lang", "en"]],
      ["import:markdown", ["blog", "--author"]],
      ["import:markdown", ["blog", "--chunk", "0"]],
      ["import:ghost", ["export.json", "--lang", "fr"]],
      ["import:ghost", ["export.json", "--images", "--dry-run"]],
      ["import:wordpress", ["export.xml", "--members", "m.csv"]],
      ["import:wordpress", ["export.xml", "--permalink", "/:slug/"]],
      ["import:markdown", ["blog", "--pages-folder", "../elsewhere"]],
      ["import:ghost", ["export.json", "--pages-folder", "pages"]],
    ];
    for (const [name, args] of refused) expect(parse(name, args), `${name} ${args.join(" ")}`).toBeNull();
  });
});
