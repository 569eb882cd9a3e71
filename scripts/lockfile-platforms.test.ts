import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { missingOptional, platformOf, restore } from "./lockfile-platforms.ts";

describe("package-lock.json", () => {
  it("has an entry for every optional dependency, so `npm ci` accepts it (run scripts/lockfile-platforms.ts)", () => {
    const lock = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../package-lock.json"), "utf8"));
    expect([...missingOptional(lock).keys()]).toEqual([]);
  });
});

describe("platformOf", () => {
  it.each([
    ["@biomejs/cli-darwin-arm64", { os: ["darwin"], cpu: ["arm64"] }],
    ["@biomejs/cli-linux-x64-musl", { os: ["linux"], cpu: ["x64"], libc: ["musl"] }],
    ["@tailwindcss/oxide-linux-arm-gnueabihf", { os: ["linux"], cpu: ["arm"] }],
    ["@tailwindcss/oxide-win32-x64-msvc", { os: ["win32"], cpu: ["x64"] }],
    ["@tailwindcss/oxide-wasm32-wasi", { cpu: ["wasm32"] }],
    ["left-pad", null],
  ])("%s", (name, expected) => expect(platformOf(name)).toEqual(expected));
});

describe("restore", () => {
  it("adds missing platform entries and refuses anything else", () => {
    const lock = {
      packages: {
        "": { name: "x" },
        "node_modules/tool": { version: "1.0.0", optionalDependencies: { "tool-darwin-arm64": "1.0.0" } },
      },
    };
    expect(restore(lock)).toEqual(["tool-darwin-arm64@1.0.0"]);
    expect(lock.packages).toHaveProperty("node_modules/tool-darwin-arm64", {
      version: "1.0.0",
      optional: true,
      os: ["darwin"],
      cpu: ["arm64"],
    });
    expect(() =>
      restore({ packages: { "node_modules/a": { optionalDependencies: { "some-helper": "^1.0.0" } } } }),
    ).toThrow(/cannot restore some-helper/);
  });
});
