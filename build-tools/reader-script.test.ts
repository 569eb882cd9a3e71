import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compileCodeCopyScript, compileReaderScript, readerScriptFile } from "./reader-script.ts";

describe("the reader script build", () => {
  it("is one small classic script: no imports, no framework, at most 6 KiB gzip", async () => {
    const code = await compileReaderScript();
    expect(code).not.toMatch(/\bimport\s*[({"']/);
    expect(code).not.toMatch(/react|i18next/i);
    expect(gzipSync(code).length).toBeLessThanOrEqual(6 * 1024);
    // What it enhances, by the attributes the components render.
    for (const hook of ["data-theme-toggle", "data-menu-toggle", "data-nav-bar", "data-carousel", "data-flash"]) {
      expect(code).toContain(hook);
    }
  });

  it("names the file by its content", async () => {
    const code = await compileReaderScript();
    expect(readerScriptFile(code)).toMatch(/^assets\/reader-[\w]{10}\.js$/);
    expect(readerScriptFile(code)).toBe(readerScriptFile(code));
    expect(readerScriptFile(`${code};`)).not.toBe(readerScriptFile(code));
  });

  it("compiles the copy buttons alone for app pages to inline: the same code, a small classic script", async () => {
    const code = await compileCodeCopyScript();
    expect(code).not.toMatch(/\bimport\s*[({"']/);
    expect(code).not.toMatch(/<\/script/i);
    for (const hook of ["button.code-copy", ".code-block", ".code-status", "data-copied"]) {
      expect(code).toContain(hook);
      expect(await compileReaderScript()).toContain(hook);
    }
    expect(code).not.toContain("data-theme-toggle");
    expect(gzipSync(code).length).toBeLessThanOrEqual(1024);
  });
});
