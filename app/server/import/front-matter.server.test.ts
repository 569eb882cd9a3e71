import { describe, expect, it } from "vitest";
import { FRONT_MATTER_MAX_BYTES, FrontMatterError, readFrontMatter } from "./front-matter.server.ts";

const codeOf = async (text: string): Promise<string | null> => {
  try {
    await readFrontMatter(text);
    return null;
  } catch (error) {
    return error instanceof FrontMatterError ? error.code : "crash";
  }
};

describe("front matter", () => {
  it("reads YAML, TOML and JSON blocks and leaves the body", async () => {
    expect(await readFrontMatter("---\ntitle: Hi\ntags: [a, b]\n---\n# Body\n")).toEqual({
      format: "yaml",
      data: { title: "Hi", tags: ["a", "b"] },
      body: "# Body\n",
    });
    const toml = await readFrontMatter('+++\ntitle = "T"\ndate = 2020-01-02T10:00:00Z\n+++\nbody');
    expect(toml.format).toBe("toml");
    expect(toml.data.title).toBe("T");
    expect(toml.data.date).toBeInstanceOf(Date);
    expect(await readFrontMatter('{\n  "title": "J"\n}\nbody')).toEqual({
      format: "json",
      data: { title: "J" },
      body: "body",
    });
    expect((await readFrontMatter("\uFEFF---\ntitle: BOM\n---\nx")).data.title).toBe("BOM");
    expect(await readFrontMatter("Just text\n---\nnot front matter")).toEqual({
      format: "none",
      data: {},
      body: "Just text\n---\nnot front matter",
    });
    // Unquoted YAML dates stay as written: the importer reads them itself.
    expect((await readFrontMatter("---\ndate: 2021-03-04 09:30:00\n---\n")).data.date).toBe("2021-03-04 09:30:00");
  });

  it("refuses hostile and broken blocks with a code, quickly", async () => {
    const laughs = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ..."bcdefgh".split("").map((k, i) => `${k}: &${k} [${Array(9).fill(`*${"abcdefgh"[i]}`).join(",")}]`),
    ].join("\n");
    const started = Date.now();
    expect(await codeOf(`---\n${laughs}\n---\nbody`)).toBe("frontMatterAliases");
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await codeOf("---\ntitle: x\nno end")).toBe("frontMatterUnclosed");
    expect(await codeOf(`---\ntitle: ${"x".repeat(FRONT_MATTER_MAX_BYTES + 10)}\n---\n`)).toBe("frontMatterTooLarge");
    expect(await codeOf(`---\n${"y".repeat(FRONT_MATTER_MAX_BYTES * 4)}`)).toBe("frontMatterTooLarge");
    expect(await codeOf("---\n: : bad\n  - x\n---\n")).toBe("frontMatterInvalid");
    expect(await codeOf("---\n- a list\n- not fields\n---\n")).toBe("frontMatterInvalid");
    expect(await codeOf('+++\ntitle = "unclosed\n+++\n')).toBe("frontMatterInvalid");
    expect(await codeOf("{\n  not json\n}\n")).toBe("frontMatterInvalid");
    // A YAML tag asking for code is data at most, never run.
    expect((await readFrontMatter("---\nx: !!js/function 'function(){}'\n---\n")).data).not.toHaveProperty(
      "x",
      expect.any(Function),
    );
  });
});
