import { describe, expect, it } from "vitest";
import { prefixLines } from "./test.ts";

async function through(chunks: string[], prefix: string): Promise<string> {
  const stream = prefixLines(prefix);
  const out: string[] = [];
  stream.on("data", (d: Buffer | string) => out.push(d.toString()));
  const ended = new Promise((resolve) => stream.on("end", resolve));
  for (const c of chunks) stream.write(Buffer.from(c));
  stream.end();
  await ended;
  return out.join("");
}

describe("prefixLines (the output of phases that run side by side)", () => {
  it("prefixes whole lines, joining a line split across chunks", async () => {
    expect(await through(["one\ntw", "o\nthr", "ee\n"], "[pg] ")).toBe("[pg] one\n[pg] two\n[pg] three\n");
  });

  it("writes a last line without its newline when the stream ends", async () => {
    expect(await through(["done\nno newline"], "[sqlite] ")).toBe("[sqlite] done\n[sqlite] no newline\n");
  });

  it("keeps a multi-byte character split between two chunks whole", async () => {
    const bytes = Buffer.from("测试\n");
    const stream = prefixLines("> ");
    const out: string[] = [];
    stream.on("data", (d: Buffer | string) => out.push(d.toString()));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.write(bytes.subarray(0, 2));
    stream.write(bytes.subarray(2));
    stream.end();
    await ended;
    expect(out.join("")).toBe("> 测试\n");
  });
});
